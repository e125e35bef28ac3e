@_spi(SyncTablesTools) import SyncTablesCore

/// A queued operation the server refused, with what is needed to resolve it.
///
/// Errors are stored with the queue, so they survive a restart (see ``SyncContext/pushErrors(table:)``),
/// and they disappear when their operation later succeeds or is resolved. Each resolution is guarded by
/// the operation's edit counter: if the item was edited locally since the error, resolving throws
/// ``SyncError/operationChanged(id:expected:actual:)`` instead of overwriting the newer edit.
public struct TableOperationError: Sendable, Identifiable, Hashable, CustomStringConvertible {
    /// The error's id.
    public let id: String
    /// The failed operation's id.
    public let operationId: String
    /// The operation's edit counter when it failed.
    public let operationVersion: Int
    /// The table.
    public let table: String
    /// The item's id.
    public let itemId: String
    /// What the operation was.
    public let kind: OperationKind
    /// The HTTP status, or `nil` when no response was involved (for example a missing local row).
    public let status: Int?
    /// The item as it was sent.
    public let clientItem: JSONObject?
    /// The server's current item, when the response carried one (409 and 412).
    public let serverItem: JSONObject?
    /// The server copy the failed update or delete was based on (``PendingOperation/ancestor``), when known:
    /// with ``clientItem`` and ``serverItem``, the three sides of a merge.
    public let ancestorItem: JSONObject?
    /// The raw response body.
    public let rawBody: String?
    /// A readable explanation (the server's message when it sent one).
    public let message: String?
    /// The context the error belongs to; resolutions act on it.
    public let context: SyncContext

    /// `true` for 409 Conflict and 412 Precondition Failed.
    public var isConflict: Bool { status == 409 || status == 412 }

    /// What met what, for a conflict: a local update, delete or insert against the server's change, or
    /// `nil` when the error is no conflict (a 404 of an update counts as ``ConflictKind/updateDelete``).
    public var conflictKind: ConflictKind? {
        ConflictClassification.kind(of: kind, status: status, serverItem: serverItem, countsMissingItem: true)
    }

    /// The three-way merge of ``clientItem`` and ``serverItem`` against ``ancestorItem`` by `rules` (say,
    /// `Task.syncRules`), for a ``ConflictPolicy/custom(_:)`` policy that settles the fields the rules leave
    /// to it (``FieldMergeRule/ask``); `nil` without both items.
    ///
    /// ```swift
    /// if var merge = error.merged(with: Task.syncRules) {
    ///     merge.merged["title"] = .string(askTheUser(merge))
    ///     return .retry(updatingItem: merge.merged)
    /// }
    /// ```
    public func merged(with rules: SyncRules) -> FieldMergeResult? {
        guard let clientItem, let serverItem, !serverItem.isTombstone else { return nil }
        return rules.merge(ancestor: ancestorItem, local: clientItem, server: serverItem)
    }

    /// The server's current item decoded as `type`, or `nil` when the response carried none.
    ///
    /// ```swift
    /// if let server = try error.serverItem(as: TodoItem.self) {
    ///     try await error.cancelAndUpdateItem(server)   // server wins
    /// }
    /// ```
    ///
    /// - Throws: ``SyncError/decoding(type:table:id:message:)`` when the item does not decode as `type`.
    public func serverItem<Item: SyncItem>(as type: Item.Type) throws -> Item? {
        try serverItem.map { object throws(SyncError) in try ItemCoding.item(type, from: object, table: table) }
    }

    /// The item as it was sent, decoded as `type`, or `nil` when none was stored with the error.
    ///
    /// - Throws: ``SyncError/decoding(type:table:id:message:)`` when the item does not decode as `type`.
    public func clientItem<Item: SyncItem>(as type: Item.Type) throws -> Item? {
        try clientItem.map { object throws(SyncError) in try ItemCoding.item(type, from: object, table: table) }
    }

    /// Two errors are equal when they are the same record of the same failure (same ``id`` and
    /// ``operationVersion``).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.id == rhs.id && lhs.operationVersion == rhs.operationVersion
    }

    /// Hashes what equality compares: the id and the operation version.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(operationVersion)
    }

    /// A one-line summary for logs.
    public var description: String {
        let code = status.map { "HTTP \($0)" } ?? "no response"
        return "\(kind) of '\(itemId)' in '\(table)' failed (\(code))" + (message.map { ": \($0)" } ?? "")
    }

    /// Removes the operation and stores `item` locally as server data (typically ``serverItem``).
    ///
    /// - Throws: What ``SyncContext/resolve(_:with:)`` throws.
    public func cancelAndUpdateItem(_ item: JSONObject) async throws {
        try await context.resolve(self, with: .cancelAndUpdateItem(item))
    }

    /// Removes the operation and stores a typed item locally as server data.
    ///
    /// - Throws: What ``SyncContext/resolve(_:with:)`` throws, and ``SyncError/encoding(type:message:)`` or
    ///   ``SyncError/itemNotObject(type:)`` when the item does not encode as a JSON object.
    public func cancelAndUpdateItem<Item: SyncItem>(_ item: Item) async throws {
        let (object, _) = try ItemCoding.object(from: item)
        try await cancelAndUpdateItem(object)
    }

    /// Removes the operation and deletes the local row.
    ///
    /// - Throws: What ``SyncContext/resolve(_:with:)`` throws.
    public func cancelAndDiscardItem() async throws {
        try await context.resolve(self, with: .cancelAndDiscardItem)
    }

    /// Keeps the operation for the next push, with `item` as its data (for example the local item carrying
    /// the server's `version`, so the next push overwrites the server: "client wins").
    ///
    /// - Throws: What ``SyncContext/resolve(_:with:)`` throws.
    public func keepOperation(updatingItem item: JSONObject) async throws {
        try await context.resolve(self, with: .keepOperation(updatingItem: item))
    }

    /// Keeps the operation for the next push with a typed item as its data.
    ///
    /// - Throws: What ``SyncContext/resolve(_:with:)`` throws, and ``SyncError/encoding(type:message:)`` or
    ///   ``SyncError/itemNotObject(type:)`` when the item does not encode as a JSON object.
    public func keepOperation<Item: SyncItem>(updatingItem item: Item) async throws {
        let (object, _) = try ItemCoding.object(from: item)
        try await keepOperation(updatingItem: object)
    }
}

extension TableOperationError {
    init(record: OperationErrorRecord, context: SyncContext) {
        self.init(
            id: record.id,
            operationId: record.operationId,
            operationVersion: record.operationVersion,
            table: record.table,
            itemId: record.itemId,
            kind: record.kind,
            status: record.status,
            clientItem: record.clientItem,
            serverItem: record.serverItem,
            ancestorItem: record.ancestorItem,
            rawBody: record.rawBody,
            message: record.message,
            context: context
        )
    }
}
