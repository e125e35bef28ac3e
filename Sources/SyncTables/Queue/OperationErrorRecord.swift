/// A push error stored in `__errors`: what the server (or the push) said about one attempt of one operation.
///
/// Rows are scoped by operation (`operationId`, `operationVersion`) and table, so they can be cleared when
/// the operation changes (collapse), succeeds or is discarded, and when its table is force-purged.
struct OperationErrorRecord: Sendable, Hashable {
    /// The record's own id.
    var id: String
    /// The operation the error belongs to.
    var operationId: String
    /// The operation's version when it failed; a resolution is refused if the operation changed since.
    var operationVersion: Int
    /// The operation's kind when it failed.
    var kind: OperationKind
    /// The item's table.
    var table: String
    /// The item's id.
    var itemId: String
    /// The HTTP status, when there was a response.
    var status: Int?
    /// The item as sent.
    var clientItem: JSONObject?
    /// The server's item, when the response body was one.
    var serverItem: JSONObject?
    /// The operation's ancestor when it failed (``PendingOperation/ancestor``).
    var ancestorItem: JSONObject?
    /// The raw response body.
    var rawBody: String?
    /// A human-readable description of the failure.
    var message: String?
    /// The push run that recorded the error.
    var pushId: String?
    /// When the error was recorded.
    var createdAt: Timestamp

    /// The names of the `__errors` columns.
    enum Field {
        static let operationId = "operationId"
        static let operationVersion = "operationVersion"
        static let kind = "operationKind"
        static let tableName = "tableName"
        static let itemId = "itemId"
        static let status = "httpStatus"
        static let clientItem = "clientItem"
        static let serverItem = "serverItem"
        static let ancestorItem = "ancestorItem"
        static let rawBody = "rawBody"
        static let message = "message"
        static let pushId = "pushId"
        static let createdAt = "createdAt"
    }

    /// The row that stores this record.
    var row: JSONObject {
        var properties: [String: JSONValue] = [
            "id": .string(id),
            Field.operationId: .string(operationId),
            Field.operationVersion: .integer(Int64(operationVersion)),
            Field.kind: .string(kind.rawValue),
            Field.tableName: .string(table),
            Field.itemId: .string(itemId),
            Field.createdAt: .string(createdAt.iso8601),
        ]
        if let status { properties[Field.status] = .integer(Int64(status)) }
        if let clientItem { properties[Field.clientItem] = .object(clientItem) }
        if let serverItem { properties[Field.serverItem] = .object(serverItem) }
        if let ancestorItem { properties[Field.ancestorItem] = .object(ancestorItem) }
        if let rawBody { properties[Field.rawBody] = .string(rawBody) }
        if let message { properties[Field.message] = .string(message) }
        if let pushId { properties[Field.pushId] = .string(pushId) }
        return JSONObject(properties)
    }

    /// Reads a record back from its row.
    init(_ row: SystemRow) throws(SyncError) {
        self.init(
            id: try row.string("id"),
            operationId: try row.string(Field.operationId),
            operationVersion: try row.integer(Field.operationVersion),
            kind: try row.value(Field.kind, as: OperationKind.self),
            table: try row.string(Field.tableName),
            itemId: try row.string(Field.itemId),
            status: row.optionalInteger(Field.status),
            clientItem: row.optionalObject(Field.clientItem),
            serverItem: row.optionalObject(Field.serverItem),
            ancestorItem: row.optionalObject(Field.ancestorItem),
            rawBody: row.optionalString(Field.rawBody),
            message: row.optionalString(Field.message),
            pushId: row.optionalString(Field.pushId),
            createdAt: try row.timestamp(Field.createdAt)
        )
    }

    init(
        id: String,
        operationId: String,
        operationVersion: Int,
        kind: OperationKind,
        table: String,
        itemId: String,
        status: Int? = nil,
        clientItem: JSONObject? = nil,
        serverItem: JSONObject? = nil,
        ancestorItem: JSONObject? = nil,
        rawBody: String? = nil,
        message: String? = nil,
        pushId: String? = nil,
        createdAt: Timestamp
    ) {
        self.id = id
        self.operationId = operationId
        self.operationVersion = operationVersion
        self.kind = kind
        self.table = table
        self.itemId = itemId
        self.status = status
        self.clientItem = clientItem
        self.serverItem = serverItem
        self.ancestorItem = ancestorItem
        self.rawBody = rawBody
        self.message = message
        self.pushId = pushId
        self.createdAt = createdAt
    }
}

extension OperationErrorRecord: SystemRecord {
    static var table: String { SystemTables.errors }

    /// The records of one table (or of all tables), oldest first.
    static func records(table: String?, in transaction: any StoreTransaction) throws -> [OperationErrorRecord] {
        let filter = table.map { FilterExpression.comparison(.equal, .property(Field.tableName), .value(.string($0))) }
        let rows = try transaction.read(
            StoreQuery(table: SystemTables.errors, filter: filter, ordering: [SortDescriptor(Field.createdAt)])
        )
        return try rows.map { try OperationErrorRecord(row: $0) }
    }

    /// The errors recorded for one operation, oldest first.
    static func records(operationId: String, in transaction: any StoreTransaction) throws -> [OperationErrorRecord] {
        let filter = FilterExpression.comparison(.equal, .property(Field.operationId), .value(.string(operationId)))
        return try transaction.read(
            StoreQuery(table: SystemTables.errors, filter: filter, ordering: [SortDescriptor(Field.createdAt)])
        ).map { try OperationErrorRecord(row: $0) }
    }

    /// Deletes every record of an operation; returns how many were deleted.
    @discardableResult
    static func deleteRecords(operationId: String, in transaction: any StoreTransaction) throws -> Int {
        let filter = FilterExpression.comparison(.equal, .property(Field.operationId), .value(.string(operationId)))
        return try transaction.delete(StoreQuery(table: SystemTables.errors, filter: filter))
    }

    /// Deletes every record of a table; returns how many were deleted.
    @discardableResult
    static func deleteRecords(table: String, in transaction: any StoreTransaction) throws -> Int {
        let filter = FilterExpression.comparison(.equal, .property(Field.tableName), .value(.string(table)))
        return try transaction.delete(StoreQuery(table: SystemTables.errors, filter: filter))
    }
}
