@_spi(SyncTablesTools) import SyncTablesSQLite

/// The temporary table that holds long `isIn` lists, so a filter can test membership in thousands of
/// values without exceeding SQLite 3.15's limit of 999 parameters per statement.
enum SQLiteValueSets {
    static let tableName = "__synctables_in"

    /// Creates the table on first use (it lives in the connection's private `temp` schema).
    static func prepare(_ database: Database) throws {
        try database.execute(
            """
            CREATE TEMP TABLE IF NOT EXISTS \(tableName) (set_id INTEGER NOT NULL, v);
            CREATE INDEX IF NOT EXISTS temp.\(tableName)_lookup ON \(tableName) (set_id, v);
            """)
    }

    /// Loads the sets of a compiled filter, runs `body`, then empties the table again.
    static func with<Result>(_ sets: [[SQLiteValue]], in database: Database, _ body: () throws -> Result) throws
        -> Result
    {
        guard !sets.isEmpty else { return try body() }
        try prepare(database)
        defer { try? database.run("DELETE FROM temp.\(tableName)") }
        let insert = try database.cachedStatement("INSERT INTO temp.\(tableName) (set_id, v) VALUES (?, ?)")
        for (offset, values) in sets.enumerated() {
            for value in values {
                insert.reset()
                try insert.bind(.integer(Int64(offset + 1)), at: 1)
                try insert.bind(value, at: 2)
                try insert.run()
            }
        }
        insert.reset()
        return try body()
    }
}
