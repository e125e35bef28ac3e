import Foundation

@_spi(SyncTablesTools) @testable import SyncTables

/// What a killed child left in its store file, read without a `SyncContext` (nothing is written or
/// recovered beyond what SQLite itself does when it opens a file after a crash).
struct StoreSnapshot {
    /// The items with a queued operation, as `table|itemId`.
    var pendingOperations: Set<String> = []
    /// The rows of the requested user tables, by table and id.
    var rows: [String: [String: JSONObject]] = [:]
    /// How many rows each requested user table holds (a row stored twice would show here).
    var rowCounts: [String: Int] = [:]
    /// The `__config` key/value pairs (schema version, sequence, delta tokens…).
    var config: [String: String] = [:]

    /// Reads the file at `path`; an absent file (the child died before creating it) is an empty snapshot.
    static func read(path: String, tables: [String]) async throws -> StoreSnapshot {
        var snapshot = StoreSnapshot()
        guard FileManager.default.fileExists(atPath: path) else { return snapshot }
        let store = try SQLiteStore(path: path)
        let defined = Set(try await store.tableDefinitions().map(\.name))
        // A read through the store's queue storage inside a transaction that writes nothing.
        let queued = try await store.write { try $0.queuedOperations(.all) }
        snapshot.pendingOperations = Set(queued.map { "\($0.table)|\($0.itemId)" })
        if defined.contains("__config") {
            for row in try await store.read(StoreQuery(table: "__config")) {
                if let key = row["id"]?.stringValue, let value = row["value"]?.stringValue {
                    snapshot.config[key] = value
                }
            }
        }
        for table in tables where defined.contains(table) {
            let rows = try await store.read(StoreQuery(table: table))
            snapshot.rowCounts[table] = rows.count
            snapshot.rows[table] = Dictionary(
                rows.compactMap { row in row["id"]?.stringValue.map { ($0, row) } }, uniquingKeysWith: { $1 })
        }
        try await store.close()
        return snapshot
    }
}

extension SyncHarness {
    /// Every row of a server table, soft-deleted ones included, by id (needs a server page size of 1000).
    func serverRows(table: String) async throws -> [String: JSONObject] {
        let client = SyncClient(url: url)
        var rows: [String: JSONObject] = [:]
        while true {
            let page = try await client.query(
                table: table, queryString: "$orderby=id&$skip=\(rows.count)&$top=1000&__includeDeleted=true")
            for item in page.items {
                if let id = item["id"]?.stringValue { rows[id] = item }
            }
            if page.items.count < 1000 { return rows }
        }
    }
}

/// The user properties of an item: what a client writes, without the server's system properties.
func userData(_ item: JSONObject) -> [String: JSONValue] {
    item.properties.filter { !["version", "createdAt", "updatedAt", "deleted"].contains($0.key) }
}
