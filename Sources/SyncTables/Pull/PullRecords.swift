import Foundation

/// The pull positions kept in `__config`: each table and query id's incremental token and when it was last
/// pulled.
struct PullRecords: Sendable {
    let store: any LocalStore

    /// The stored incremental token of a table and query id, `nil` before the first pull.
    func deltaToken(key: String) async throws -> DeltaToken? {
        try await storedValue(key: key, expecting: "a date or a date and an item id", DeltaToken.init(storedValue:))
    }

    /// When a pull of `table` and `queryId` last completed, if ever.
    func lastPullTime(table: String, queryId: String?) async throws -> Date? {
        let key = SystemConfig.lastPullKey(table: table, queryId: queryId ?? "")
        return try await storedValue(key: key, expecting: "a date", Timestamp.init(parsing:))?.date
    }

    /// Records that a pull of `table` and `queryId` completed now.
    func recordPullTime(table: String, queryId: String?) async throws {
        let key = SystemConfig.lastPullKey(table: table, queryId: queryId ?? "")
        let now = Timestamp(date: .now).iso8601
        try await SyncError.mapping { try await store.write { try SystemConfig.setValue(now, for: key, in: $0) } }
    }

    /// A `__config` value read with `parse`, `nil` when unset; a value `parse` refuses is a damaged system table.
    private func storedValue<Value>(key: String, expecting description: String, _ parse: (String) -> Value?)
        async throws -> Value?
    {
        let text = try await SyncError.mapping {
            try await store.write { try SystemConfig.value(for: key, in: $0) }
        }
        guard let text else { return nil }
        guard let value = parse(text) else {
            throw SyncError.corruptSystemTable(table: SystemTables.config, message: "'\(key)' is not \(description)")
        }
        return value
    }
}
