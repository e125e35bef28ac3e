import Foundation
import SyncTablesSQLite
import Testing

@testable import SyncTables

/// Long strings live in their projected column only (`_column_only` lists them); every read puts them back.
/// The conformance suite checks the reads on every store; these tests check what is SQLite's own: the
/// lookup connection, a file of the previous layout, and a hand-edited list.
@Suite("SQLite column-only strings")
struct SQLiteColumnOnlyStringsTests {
    static let long = String(repeating: "a long note, ", count: 8)

    static func item(_ id: String, body: String = long) -> JSONObject {
        JSONObject(["id": .string(id), "body": .string(body), "title": .string("t-\(id)"), "n": .integer(1)])
    }

    @Test func theLookupConnectionReadsColumnOnlyValuesInOneSnapshot() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.newDatabasePath())
        try await store.defineTable(TableDefinition(name: "Note"))
        try await store.write { try $0.upsert(table: "Note", items: [Self.item("a"), Self.item("b", body: "short")]) }
        // `lookup` answers on the caller's thread through the lookup connection.
        #expect(try await store.lookup(table: "Note", id: "a") == Self.item("a"))
        #expect(try await store.lookup(table: "Note", id: "b") == Self.item("b", body: "short"))

        // A property seen for the first time gets a column in the same write: the connection learns of it.
        var added = Self.item("c")
        added["summary"] = .string(Self.long + "summary")
        let later = added
        #expect(try await store.write { try $0.insertNew(table: "Note", items: [later]) })
        #expect(try await store.lookup(table: "Note", id: "c") == later)

        // Writers racing the lookups: every lookup sees a whole row, old or new.
        let replacement = Self.item("a", body: Self.long + "second version")
        async let writes: Void = {
            for _ in 0..<50 {
                try await store.write { try $0.upsert(table: "Note", items: [replacement]) }
                try await store.write { try $0.upsert(table: "Note", items: [Self.item("a")]) }
            }
        }()
        for _ in 0..<500 {
            let found = try await store.lookup(table: "Note", id: "a")
            #expect(found == Self.item("a") || found == replacement)
        }
        try await writes
        try await store.close()
    }

    /// Reads select a narrow table's projected columns with the row and read a wider table's column-only
    /// values by rowid: both give the whole row back, through every kind of read.
    @Test(arguments: [4, SQLiteTableState.inlineColumnLimit + 8])
    func everyReadPutsTheValuesBackWhateverTheTableWidth(properties: Int) async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.newDatabasePath())
        try await store.defineTable(TableDefinition(name: "Note"))
        var wide = JSONObject(["id": .string("w")])
        for index in 0..<properties {
            // Every third property long (column-only), the rest short, so the list skips columns.
            wide["p\(index)"] = .string(index % 3 == 0 ? Self.long + "\(index)" : "short \(index)")
        }
        let item = wide
        #expect(try await store.write { try $0.insertNew(table: "Note", items: [item, Self.item("a")]) })
        #expect(try await store.lookup(table: "Note", id: "w") == item)
        #expect(
            try await store.read(StoreQuery(table: "Note", ordering: [SortDescriptor("id")])) == [Self.item("a"), item])
        let json = try await store.readJSON(StoreQuery(table: "Note", ordering: [SortDescriptor("id")]))
        #expect(
            try json.map { try JSONObject(parsing: String(decoding: $0, as: UTF8.self)) } == [Self.item("a"), item])
        try await store.close()
        withExtendedLifetime(directory) {}
    }

    /// A closed store file whose table `Note` holds `items`, and the directory that keeps it.
    private static func noteFile(_ items: [JSONObject]) async throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory()
        let path = directory.newDatabasePath()
        let store = try SQLiteStore(path: path)
        try await store.defineTable(TableDefinition(name: "Note"))
        try await store.write { try $0.upsert(table: "Note", items: items) }
        try await store.close()
        return (directory, path)
    }

    @Test func aFileOfTheLayoutBeforeOpensReadsItsRowsAndStoresNewOnesOnce() async throws {
        let (directory, path) = try await Self.noteFile([Self.item("old")])
        // Layout 2: the same table without `_column_only`, every value in `_json`.
        let database = try Database(path: path)
        let body = try #require(try Self.columnNumber("body", in: database))
        let title = try #require(try Self.columnNumber("title", in: database))
        let n = try #require(try Self.columnNumber("n", in: database))
        let columns = "id, _json, c\(body), c\(title), c\(n)"
        try database.execute(
            """
            ALTER TABLE Note RENAME TO Note_before;
            CREATE TABLE Note (id TEXT PRIMARY KEY NOT NULL, _json TEXT NOT NULL, c\(body), c\(title), c\(n));
            INSERT INTO Note (\(columns)) SELECT id, '\(Self.item("old").jsonString)', c\(body), c\(title), c\(n)
                FROM Note_before;
            DROP TABLE Note_before;
            """)
        try database.setUserVersion(2)
        try database.close()

        let reopened = try SQLiteStore(path: path)
        #expect(try await reopened.lookup(table: "Note", id: "old") == Self.item("old"))
        try await reopened.write { try $0.upsert(table: "Note", items: [Self.item("new")]) }
        let rows = try await reopened.read(StoreQuery(table: "Note", ordering: [SortDescriptor("id")]))
        #expect(rows == [Self.item("new"), Self.item("old")])
        try await reopened.close()

        let migrated = try Database(path: path)
        #expect(try migrated.userVersion() == SQLiteCatalog.currentVersion)
        #expect(try migrated.scalar("SELECT _column_only FROM Note WHERE id = 'old'") == .null)
        #expect(try migrated.scalar("SELECT _column_only FROM Note WHERE id = 'new'") == .text("\(body)"))
        try migrated.close()
        withExtendedLifetime(directory) {}
    }

    @Test(arguments: ["x", "0", "1,", "99", "1,2"])
    func aListThatDoesNotNameTextColumnsIsInvalidStoredData(list: String) async throws {
        let (directory, path) = try await Self.noteFile([Self.item("a")])
        let database = try Database(path: path)
        // "1,2" names two columns, but column 3 ("n", an integer) is listed in its place below.
        let n = try #require(try Self.columnNumber("n", in: database))
        let edited = list == "1,2" ? "\(n)" : list
        try database.run("UPDATE Note SET _column_only = ? WHERE id = 'a'", [.text(edited)])
        try database.close()

        let reopened = try SQLiteStore(path: path)
        for read in [
            { try await reopened.lookup(table: "Note", id: "a").map { [$0] } ?? [] },
            { try await reopened.read(StoreQuery(table: "Note")) },
            {
                try await reopened.readJSON(StoreQuery(table: "Note")).map {
                    try JSONObject(parsing: String(decoding: $0, as: UTF8.self))
                }
            },
        ] as [() async throws -> [JSONObject]] {
            await #expect {
                _ = try await read()
            } throws: { error in
                if case StoreError.invalidStoredData(table: "Note", _, _) = error { return true }
                return false
            }
        }
        try await reopened.close()
        withExtendedLifetime(directory) {}
    }

    private static func columnNumber(_ property: String, in database: Database) throws -> Int? {
        let value = try database.scalar(
            "SELECT column_number FROM __synctables_columns WHERE table_key = 'note' AND property = ?",
            [.text(property)])
        guard case .integer(let number) = value else { return nil }
        return Int(number)
    }
}
