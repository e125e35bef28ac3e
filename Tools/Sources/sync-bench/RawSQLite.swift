import Foundation
@_spi(SyncTablesTools) import SyncTablesSQLite

/// The raw baselines: a plain table of `(id, json, complete, text)` written and read with prepared
/// statements on the same SQLite build, journal mode and `synchronous` setting as the store.
final class RawSQLite {
    let database: Database
    private let insert: Statement
    private let select: Statement

    init(path: String, synchronous: String) throws {
        database = try Database(path: path)
        try database.execute("PRAGMA journal_mode = WAL")
        try database.execute("PRAGMA synchronous = \(synchronous)")
        try database.execute(
            "CREATE TABLE IF NOT EXISTS raw (id TEXT PRIMARY KEY NOT NULL, json TEXT NOT NULL, complete, text)")
        insert = try database.prepare("INSERT INTO raw (id, json, complete, text) VALUES (?, ?, ?, ?)")
        select = try database.prepare("SELECT json FROM raw WHERE id = ?")
    }

    /// Inserts one row (no transaction of its own).
    func insertRow(_ row: RawRow) throws {
        insert.reset()
        try insert.bind(row.id, at: 1)
        try insert.bind(row.json, at: 2)
        try insert.bind(row.complete ? 1 : 0, at: 3)
        try insert.bind(row.text, at: 4)
        try insert.run()
    }

    /// Each row in its own `BEGIN IMMEDIATE … COMMIT`.
    func insertEachInTransaction(_ rows: [RawRow]) throws {
        for row in rows {
            try database.transaction { try insertRow(row) }
        }
    }

    /// Every row in one transaction.
    func insertInOneTransaction(_ rows: ArraySlice<RawRow>) throws {
        try database.transaction {
            for row in rows { try insertRow(row) }
        }
    }

    /// The JSON text of the row with this id.
    func lookup(_ id: String) throws -> String? {
        select.reset()
        try select.bind(id, at: 1)
        return try select.step() ? select.text(at: 0) : nil
    }

    /// The JSON texts of incomplete rows whose text starts with `Buy`, optionally limited.
    func filtered(limit: Int?) throws -> [String] {
        var sql = "SELECT json FROM raw WHERE complete = 0 AND substr(text, 1, 3) = 'Buy' ORDER BY id"
        if let limit { sql += " LIMIT \(limit)" }
        let statement = try database.cachedStatement(sql)
        defer { statement.reset() }
        var texts: [String] = []
        while try statement.step() {
            texts.append(statement.text(at: 0) ?? "")
        }
        return texts
    }

    func close() throws {
        try database.close()
    }
}

/// One row as the raw baseline stores it.
struct RawRow: Sendable {
    var id: String
    var json: String
    var complete: Bool
    var text: String

    init(id: String, json: String, complete: Bool, text: String) {
        self.id = id
        self.json = json
        self.complete = complete
        self.text = text
    }

    init(_ todo: BenchTodo) throws {
        id = todo.id
        json = try todo.jsonText()
        complete = todo.complete
        text = todo.text
    }
}
