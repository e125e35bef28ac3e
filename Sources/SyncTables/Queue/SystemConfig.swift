/// Reads and writes the `__config` key/value table inside a store transaction.
///
/// Each key is the row id; the value is a string in the `value` property.
enum SystemConfig {
    /// The version of the system tables' layout, stamped on open (see ``SystemSchema``).
    static let schemaVersionKey = "schemaVersion"
    /// The highest operation sequence ever handed out, so sequences keep growing after the queue empties.
    static let operationSequenceKey = "operationSequence"

    /// The key of the incremental-pull watermark of a table and query id.
    static func deltaTokenKey(table: String, queryId: String) -> String {
        "deltaToken|\(table)|\(queryId)"
    }

    /// The key prefix shared by every delta token of a table (purge resets them all).
    static func deltaTokenPrefix(table: String) -> String {
        "deltaToken|\(table)|"
    }

    /// The key of the time a table and query id was last pulled.
    static func lastPullKey(table: String, queryId: String) -> String {
        "lastPull|\(table)|\(queryId)"
    }

    private static let valueField = "value"

    /// The value stored under `key`, or `nil`.
    static func value(for key: String, in transaction: any StoreTransaction) throws -> String? {
        guard let row = try transaction.lookup(table: SystemTables.config, id: key) else { return nil }
        guard case .string(let value)? = row[valueField] else {
            throw SyncError.corruptSystemTable(table: SystemTables.config, message: "'\(key)' has no string value")
        }
        return value
    }

    /// Stores `value` under `key`, replacing any previous value.
    static func setValue(_ value: String, for key: String, in transaction: any StoreTransaction) throws {
        try transaction.upsert(
            table: SystemTables.config,
            items: [JSONObject(["id": .string(key), valueField: .string(value)])]
        )
    }

    /// Removes the value under `key`, if any.
    static func removeValue(for key: String, in transaction: any StoreTransaction) throws {
        try transaction.delete(table: SystemTables.config, ids: [key])
    }

    /// Removes every value whose key starts with `prefix`; returns how many were removed.
    @discardableResult
    static func removeValues(withPrefix prefix: String, in transaction: any StoreTransaction) throws -> Int {
        let filter = FilterExpression.function(.startsWith, [.property("id"), .value(.string(prefix))])
        return try transaction.delete(StoreQuery(table: SystemTables.config, filter: filter))
    }
}
