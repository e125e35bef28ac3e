/// Reads and writes the scalar settings of the `__config` table inside a store transaction: the layout
/// version, the sequence counters, and each pull's token and time.
///
/// Each key is the row id; the value is a string in the `value` property. (The engine's backoff and the push
/// lease are typed rows of the same table: ``EngineBackoff``, ``PushLease/Holder``.)
enum SystemConfig {
    /// The version of the system tables' layout, stamped on open (see ``SystemSchema``).
    static let schemaVersionKey = "schemaVersion"
    /// The highest operation sequence ever handed out, so sequences keep growing after the queue empties.
    static let operationSequenceKey = "operationSequence"
    /// The number of the latest operation history entry, so numbers keep growing after pruning.
    static let historySequenceKey = "historySequence"

    /// What a per-pull key records; keys are `<kind>|<table>|<queryId>` (an empty query id for full pulls).
    enum PullKeyKind: String, CaseIterable {
        /// The incremental-pull watermark.
        case deltaToken
        /// The time the pull last completed.
        case lastPull

        /// The prefix every key of this kind starts with.
        var prefix: String { rawValue + "|" }

        /// The prefix shared by this kind's keys of one table (a whole-table purge removes them all).
        func prefix(table: String) -> String { prefix + table + "|" }

        /// The key of one table and query id.
        func key(table: String, queryId: String) -> String { prefix(table: table) + queryId }
    }

    /// A per-pull key taken apart.
    struct PullKey {
        let kind: PullKeyKind
        let table: String
        /// Empty for a full pull.
        let queryId: String

        /// Parses `<kind>|<table>|<queryId>`; `nil` for any other key.
        init?(_ key: String) {
            let parts = key.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, let kind = PullKeyKind(rawValue: String(parts[0])) else { return nil }
            (self.kind, self.table, self.queryId) = (kind, String(parts[1]), String(parts[2]))
        }
    }

    /// The key of the incremental-pull watermark of a table and query id.
    static func deltaTokenKey(table: String, queryId: String) -> String {
        PullKeyKind.deltaToken.key(table: table, queryId: queryId)
    }

    /// The key of the time a table and query id was last pulled.
    static func lastPullKey(table: String, queryId: String) -> String {
        PullKeyKind.lastPull.key(table: table, queryId: queryId)
    }

    private static let valueField = "value"

    /// The value stored under `key`, or `nil`.
    static func value(for key: String, in transaction: any StoreTransaction) throws -> String? {
        guard let row = try transaction.lookup(table: SystemTables.config, id: key) else { return nil }
        return try value(of: row, key: key)
    }

    /// Every key starting with `prefix` and its value, in key order.
    static func values(
        withPrefix prefix: String, in transaction: any StoreTransaction
    ) throws -> [(key: String, value: String)] {
        try transaction.read(StoreQuery(table: SystemTables.config, filter: keyFilter(prefix: prefix))).map { row in
            let key = row["id"]?.stringValue ?? ""
            return (key, try value(of: row, key: key))
        }
    }

    private static func value(of row: JSONObject, key: String) throws -> String {
        guard case .string(let value)? = row[valueField] else {
            throw SyncError.corruptSystemTable(table: SystemTables.config, message: "'\(key)' has no string value")
        }
        return value
    }

    private static func keyFilter(prefix: String) -> FilterExpression {
        .function(.startsWith, [.property("id"), .value(.string(prefix))])
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
        try transaction.delete(StoreQuery(table: SystemTables.config, filter: keyFilter(prefix: prefix)))
    }
}
