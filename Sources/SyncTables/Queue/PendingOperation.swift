/// One queued local change waiting to be pushed: the public, read-only view of an operation in the queue.
///
/// ```swift
/// for operation in try await context.pendingOperations(table: "TodoItem") {
///     print(operation.sequence, operation.kind, operation.itemId, operation.state)
/// }
/// ```
public struct PendingOperation: Sendable, Hashable, Identifiable {
    /// The operation's own id (a UUID string); error records refer to it.
    public let id: String
    /// The position in the context-wide queue: strictly increasing, pushed in ascending order.
    public internal(set) var sequence: Int
    /// What the operation does.
    public internal(set) var kind: OperationKind
    /// The table of the item.
    public let table: String
    /// The id of the item.
    public let itemId: String
    /// For deletes, the item as it was when deleted (its `version` feeds `If-Match`); `nil` otherwise,
    /// because inserts and updates send the current local row.
    public internal(set) var item: JSONObject?
    /// Where the operation stands.
    public internal(set) var state: OperationState
    /// An edit counter starting at 1, bumped whenever the operation changes; guards error resolutions
    /// and push against acting on an operation that changed meanwhile.
    public internal(set) var version: Int
    /// When the operation was first queued.
    public let createdAt: Timestamp
    /// How many times a push has sent it.
    public internal(set) var attempts: Int
    /// For updates and deletes, the server's copy of the item the local change was based on (with its
    /// `version`): the common ancestor of a three-way merge when the server changed the item meanwhile. `nil`
    /// for inserts, for items the device never had from the server, and for operations queued by a
    /// SyncTables without ancestors.
    public internal(set) var ancestor: JSONObject?

    /// An operation as a store reads it back; the context creates operations, stores only return them.
    public init(
        id: String,
        sequence: Int,
        kind: OperationKind,
        table: String,
        itemId: String,
        item: JSONObject?,
        state: OperationState,
        version: Int,
        createdAt: Timestamp,
        attempts: Int,
        ancestor: JSONObject? = nil
    ) {
        self.id = id
        self.sequence = sequence
        self.kind = kind
        self.table = table
        self.itemId = itemId
        self.item = item
        self.state = state
        self.version = version
        self.createdAt = createdAt
        self.attempts = attempts
        self.ancestor = ancestor
    }
}

extension PendingOperation {
    /// The names of the `__operations` columns, in one place for the queue and its queries.
    enum Field {
        static let operationId = "operationId"
        static let sequence = "sequence"
        static let kind = "kind"
        static let tableName = "tableName"
        static let itemId = "itemId"
        static let item = "item"
        static let state = "state"
        static let version = "version"
        static let createdAt = "createdAt"
        static let attempts = "attempts"
        static let ancestor = "ancestor"
    }

    /// Whether the operation is an insert that recreates an item this device deleted (the undo of a delete
    /// that was sent; see ``OperationCollapse``): an insert that kept the delete's ancestor.
    var recreatesItem: Bool { kind == .insert && ancestor != nil }

    /// Marks the operation as being sent: state `attempted`, one more attempt. The version stays.
    mutating func recordAttempt() {
        state = .attempted
        attempts += 1
    }

    /// The primary key of the row holding the operation of an item: at most one operation exists per item.
    ///
    /// Table names never contain `|`, so the key is unambiguous even when the item id does.
    static func rowKey(table: String, itemId: String) -> String {
        table + "|" + itemId
    }

    /// The row that stores this operation in `__operations`.
    var row: JSONObject {
        var properties: [String: JSONValue] = [
            "id": .string(Self.rowKey(table: table, itemId: itemId)),
            Field.operationId: .string(id),
            Field.sequence: .integer(Int64(sequence)),
            Field.kind: .string(kind.rawValue),
            Field.tableName: .string(table),
            Field.itemId: .string(itemId),
            Field.state: .string(state.rawValue),
            Field.version: .integer(Int64(version)),
            Field.createdAt: .string(createdAt.iso8601),
            Field.attempts: .integer(Int64(attempts)),
        ]
        if let item {
            properties[Field.item] = .object(item)
        }
        if let ancestor {
            properties[Field.ancestor] = .object(ancestor)
        }
        return JSONObject(properties)
    }

    /// Reads an operation back from its `__operations` row.
    init(_ row: SystemRow) throws(SyncError) {
        let item = row.optionalObject(Field.item)
        if item == nil, let value = row.object[Field.item], value != .null { throw row.corrupt(Field.item) }
        self.init(
            id: try row.string(Field.operationId),
            sequence: try row.integer(Field.sequence),
            kind: try row.value(Field.kind, as: OperationKind.self),
            table: try row.string(Field.tableName),
            itemId: try row.string(Field.itemId),
            item: item,
            state: try row.value(Field.state, as: OperationState.self),
            version: try row.integer(Field.version),
            createdAt: try row.timestamp(Field.createdAt),
            attempts: try row.integer(Field.attempts),
            ancestor: row.optionalObject(Field.ancestor)
        )
    }
}

extension PendingOperation: SystemRecord {
    static var table: String { SystemTables.operations }
}
