import GRDB

/// SyncTables' own file read through GRDB: the SQL that SyncTables runs for the query, without parsing,
/// and how many bytes each table and index of a file takes. Splits a query's time into SQLite's part (which
/// depends on the file's layout) and the part spent turning rows into items.
struct StoredLayout {
    let queue: DatabaseQueue
    let selectSQL: String
    let countSQL: String

    /// Opens SyncTables' file read-only beside the open store (WAL allows it) and builds the query's SQL from
    /// the store's catalog of projected columns.
    init(syncTablesFile path: String, table: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        queue = try DatabaseQueue(path: path, configuration: configuration)
        let columns = try queue.read { db in
            try Dictionary(
                uniqueKeysWithValues: Row.fetchAll(
                    db,
                    sql: """
                        SELECT property, column_number FROM __synctables_columns
                        WHERE table_key = (SELECT key FROM __synctables_tables WHERE name = ?)
                        """, arguments: [table]
                ).map { (row: Row) -> (String, String) in (row["property"], "c\(row["column_number"] as Int)") })
        }
        guard let done = columns["done"], let priority = columns["priority"], let created = columns["created"] else {
            throw Mismatch(message: "the catalog lacks a column of the query: \(columns)")
        }
        // SyncTables' statement: the page's rowids sorted by the keys, then those rows read whole.
        let stored = (["id", "_json", "_kinds"] + columns.values.sorted().map { "\"\($0)\"" })
            .map { "_row.\($0)" }.joined(separator: ", ")
        countSQL = "SELECT count(*) FROM \"\(table)\" WHERE (\"\(done)\" = 0 AND \"\(priority)\" >= 3)"
        selectSQL = """
            SELECT \(stored) FROM (
                SELECT rowid AS _rowid FROM "\(table)" WHERE ("\(done)" = 0 AND "\(priority)" >= 3)
                ORDER BY "\(created)" DESC, id ASC LIMIT 1000) AS _page
            JOIN "\(table)" AS _row ON _row.rowid = _page._rowid ORDER BY _row."\(created)" DESC, _row.id ASC
            """
    }

    /// Runs the query's SQL and reads each row's stored values, as SyncTables does before assembling them.
    func query() throws -> Int {
        try queue.read { db in
            var rows = 0
            let cursor = try Row.fetchCursor(db, sql: selectSQL)
            while let row = try cursor.next() {
                let values = (0..<row.count).map { row[$0] as DatabaseValue }
                rows += values.isEmpty ? 0 : 1
            }
            return rows
        }
    }

    /// Runs the count's SQL.
    func count() throws -> Int {
        try queue.read { db in try Int.fetchOne(db, sql: countSQL) ?? 0 }
    }

    /// Bytes per table and index of the file at `path`, largest first (SQLite's `dbstat` table).
    static func sizes(of path: String) throws -> [(name: String, bytes: Int)] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC")
                .map { ($0["name"], $0["bytes"]) }
        }
    }
}
