@_spi(SyncTablesTools) import SyncTablesCore

// Resolving push errors: each resolution is one transaction guarded by the operation's edit counter, so
// resolving a stale error can never overwrite a newer local edit.

/// Reads the push errors stored in the queue and applies resolutions to them, for the app
/// (``SyncContext/resolve(_:with:)``) and for a push's conflict policy alike.
struct ErrorResolver: Sendable {
    let store: any LocalStore
    let queue: OperationQueue
    /// Wakes the live queries of a table a resolution changed.
    let notifier: Broadcaster<Void>
    /// The context the errors handed out belong to (``TableOperationError/context``).
    let context: SyncContext

    /// Applies a resolution to a push error.
    ///
    /// - Throws: ``SyncError/operationNotFound(id:)`` when the operation is gone,
    ///   ``SyncError/operationChanged(id:expected:actual:)`` when it was edited since the error,
    ///   ``SyncError/invalidQuery(_:)`` when a resolution's item has another id than the error's item, and
    ///   ``SyncError/store(_:)`` when the store fails. Nothing changes then.
    ///
    /// `trace`, for a resolution a table's rules chose, goes into the history entry.
    func apply(_ resolution: ConflictResolution, to error: TableOperationError, trace: ResolutionTrace? = nil)
        async throws
    {
        if case .unresolved = resolution { return }
        let queue = self.queue
        let table = error.table
        let itemId = error.itemId
        try await SyncError.mapping {
            try await store.write { transaction in
                guard var operation = try OperationQueue.operation(id: error.operationId, in: transaction) else {
                    throw SyncError.operationNotFound(id: error.operationId)
                }
                guard operation.version == error.operationVersion else {
                    throw SyncError.operationChanged(
                        id: operation.id, expected: error.operationVersion, actual: operation.version)
                }
                try OperationErrorRecord.deleteRecords(operationId: operation.id, in: transaction)
                switch resolution {
                case .cancelAndUpdateItem(let item):
                    guard item["id"] == .string(itemId) else {
                        throw SyncError.invalidQuery("the resolving item's id must be '\(itemId)'")
                    }
                    try queue.settle([operation], as: .resolved, trace: trace, in: transaction)
                    if item.isTombstone {
                        try transaction.delete(table: table, ids: [itemId])
                    } else {
                        try transaction.upsert(table: table, items: [item])
                    }
                case .cancelAndDiscardItem:
                    try queue.settle([operation], as: .resolved, trace: trace, in: transaction)
                    try transaction.delete(table: table, ids: [itemId])
                case .keepOperation(let item), .retry(let item):
                    guard item["id"] == .string(itemId) else {
                        throw SyncError.invalidQuery("the resolving item's id must be '\(itemId)'")
                    }
                    // An insert the server refused as a duplicate can only go on as an update.
                    if operation.kind == .insert, error.status == 409 { operation.kind = .update }
                    try Self.keep(&operation, item: item, basedOn: Self.basis(of: error, trace: trace), in: transaction)
                    try queue.history.record(operation, .resolved, trace: trace, in: transaction)
                case .convert(let kind, let item):
                    guard item["id"] == .string(itemId) else {
                        throw SyncError.invalidQuery("the resolving item's id must be '\(itemId)'")
                    }
                    // An insert keeps an ancestor: it marks the insert as recreating the item (see
                    // OperationCollapse), so a soft-deleted copy on the server is restored, not refused.
                    let basis = Self.basis(of: error, trace: trace) ?? (kind == .insert ? error.clientItem : nil)
                    operation.kind = kind
                    operation.item = nil
                    try Self.keep(&operation, item: item, basedOn: basis, in: transaction)
                    try queue.history.record(operation, .resolved, trace: trace, in: transaction)
                case .unresolved:
                    break  // returned early above
                }
            }
        }
        notifier.notify(table)
    }

    /// Keeps `operation` queued (pending, its version bumped, based on `ancestor` when given) with `item` as
    /// its data: the deleted item of a delete, else the local row.
    private static func keep(
        _ operation: inout PendingOperation, item: JSONObject, basedOn ancestor: JSONObject?,
        in transaction: any StoreTransaction
    ) throws {
        operation.state = .pending
        operation.version += 1
        if let ancestor { operation.ancestor = ancestor }
        if operation.kind == .delete {
            operation.item = item
            try transaction.delete(table: operation.table, ids: [operation.itemId])
        } else {
            let existing = try transaction.lookup(table: operation.table, id: operation.itemId)
            var row = ItemCoding.rowForUpdate(item, existing: existing)
            row["version"] = item["version"]
            try transaction.upsert(table: operation.table, items: [row])
        }
        try OperationQueue.save([operation], in: transaction)
    }

    /// The server copy an operation kept after `error` builds on: the trace's, else the server's live item.
    private static func basis(of error: TableOperationError, trace: ResolutionTrace?) -> JSONObject? {
        if let ancestor = trace?.ancestor { return ancestor }
        guard let server = error.serverItem, !server.isTombstone else { return nil }
        return server
    }

    /// The errors a push recorded, oldest first.
    func errors(pushId: String) async throws -> [TableOperationError] {
        let filter = FilterExpression.comparison(
            .equal, .property(OperationErrorRecord.Field.pushId), .value(.string(pushId)))
        let rows = try await store.read(
            StoreQuery(
                table: SystemTables.errors, filter: filter,
                ordering: [SortDescriptor(OperationErrorRecord.Field.createdAt)]))
        return try rows.map { TableOperationError(record: try OperationErrorRecord(row: $0), context: context) }
    }

    /// The error stored for an operation, if any.
    func error(operationId: String) async throws -> TableOperationError? {
        let filter = FilterExpression.comparison(
            .equal, .property(OperationErrorRecord.Field.operationId), .value(.string(operationId)))
        return try await store.read(StoreQuery(table: SystemTables.errors, filter: filter, limit: 1))
            .first.map { TableOperationError(record: try OperationErrorRecord(row: $0), context: context) }
    }
}
