import SyncTables
@_spi(SyncTablesTools) import SyncTablesCore

/// The records of keyed writes in a SQLite store: the table `__idempotency` (a name clients cannot reach,
/// see `TableName`), one row per scope and key, written in the transaction of the write it records.
///
/// A row: `{"id": <scope and key>, "method", "path", "status", "item" (JSON text or null), "recordedAt"}`.
enum SQLiteIdempotencyTable {
    static let name = "__idempotency"
    /// Expired rows are found by `recordedAt`.
    static let definition = TableDefinition(name: name, indexes: [["recordedAt"]])

    /// The row id of a scope's key: the scope's length first, so no scope and key pair spells another's.
    static func rowID(of request: IdempotentRequest) -> String {
        "\(request.scope.utf8.count):\(request.scope)\(request.key)"
    }

    /// The record of the request's key, whether expired or not, or `nil`.
    static func record(of request: IdempotentRequest, in tx: any StoreTransaction) throws -> IdempotencyRecord? {
        try tx.lookup(table: name, id: rowID(of: request)).flatMap(record(from:))
    }

    /// Stores the record of the request's key, replacing an expired one.
    static func store(_ record: IdempotencyRecord, of request: IdempotentRequest, in tx: any StoreTransaction) throws {
        var row = JSONObject([
            "id": .string(rowID(of: request)), "method": .string(record.method), "path": .string(record.path),
            "status": .integer(Int64(record.answer.status)), "recordedAt": .integer(record.recordedAt),
        ])
        row["item"] = record.answer.item.map { .string(String(decoding: $0.jsonBytes, as: UTF8.self)) } ?? .null
        try tx.upsert(table: name, items: [row])
    }

    /// The rows made before `expiredBefore`, at most `limit`.
    static func expired(before expiredBefore: Int64, limit: Int) -> StoreQuery {
        StoreQuery(
            table: name, filter: .comparison(.lessThan, .property("recordedAt"), .value(.integer(expiredBefore))),
            limit: limit)
    }

    /// The record a row holds; `nil` for a row this server did not write.
    static func record(from row: JSONObject) -> IdempotencyRecord? {
        guard case .string(let method)? = row["method"], case .string(let path)? = row["path"],
            case .integer(let status)? = row["status"], case .integer(let recordedAt)? = row["recordedAt"]
        else { return nil }
        var item: JSONObject?
        if case .string(let text)? = row["item"] {
            guard let parsed = try? JSONObject(parsing: Array(text.utf8)) else { return nil }
            item = parsed
        }
        return IdempotencyRecord(
            method: method, path: path, answer: WriteAnswer(status: Int(status), item: item), recordedAt: recordedAt)
    }
}
