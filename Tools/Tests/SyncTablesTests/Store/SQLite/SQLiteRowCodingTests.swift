import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@_spi(SyncTablesTools) @testable import SyncTablesSQLite

/// Every top-level value lives once, in its projected column, with the row's `_kinds` telling what the
/// column's storage class does not (see ``SQLiteRowCoding``). The conformance suite checks the reads on every
/// store; these tests check what is SQLite's own: values whose column alone would be ambiguous, the lookup
/// connection (also when another connection added columns), a file of the previous layout, and a hand-edited
/// kinds list.
@Suite("SQLite row coding")
struct SQLiteRowCodingTests {
    static let long = String(repeating: "a long note, ", count: 8)

    static func item(_ id: String, body: String = long) -> JSONObject {
        JSONObject(["id": .string(id), "body": .string(body), "title": .string("t-\(id)"), "n": .integer(1)])
    }

    /// Values a column alone would give back differently: each must read back exactly.
    static let tricky: [JSONObject] = [
        [
            "id": "numbers", "one": .integer(1), "oneDouble": .double(1.0), "max": .integer(.max),
            "min": .integer(.min), "huge": .double(1e300), "tiny": .double(.leastNonzeroMagnitude),
            "negativeZero": .double(-0.0), "tenth": .double(0.1), "decimalLike": .double(12345.678901234567),
        ],
        ["id": "booleans", "yes": .bool(true), "no": .bool(false), "zero": .integer(0)],
        ["id": "nulls", "gone": .null, "empty": .string("")],
        [
            "id": "dates", "due": "2024-05-01T10:00:00.000Z", "dueOffset": "2024-05-01T12:00:00+02:00",
            "dueTicks": "2024-05-01T10:00:00.1234567Z", "plainCanonical": "2024-05-01T10:00:00.000Z",
            "plainOther": "2024-05-01T10:00:00Z", "almostDate": "2024-13-45T99:00:00Z",
        ],
        [
            "id": "strings", "unicode": "Grüße, 世界 🌍 e\u{301}", "withNUL": "a\u{0}b", "numberLike": "1",
            "doubleLike": "1.0", "trueLike": "true", "nullLike": "null", "jsonLike": #"{"a":1}"#,
            "long": .string(long),
        ],
        [
            "id": "nested", "object": ["b": 1, "a": [true, nil, 1.5, "s", ["deep": []]]], "array": [],
            "emptyObject": .object(JSONObject()), "dateInside": ["2024-05-01T10:00:00Z"],
        ],
        // One property whose type changes from row to row (and a date property, so a date string is ticks).
        ["id": "m1", "mixed": 1], ["id": "m2", "mixed": true], ["id": "m3", "mixed": "1"], ["id": "m4", "mixed": 1.0],
        ["id": "m5", "mixed": nil], ["id": "m6"], ["id": "m7", "mixed": [1]],
        ["id": "m8", "mixed": "2024-05-01T10:00:00.000Z"], ["id": "m9", "mixed": "2024-05-01T10:00:00Z"],
    ]

    static let trickyDefinition = TableDefinition(
        name: "Tricky", dateProperties: ["due", "dueOffset", "dueTicks", "mixed"])

    /// Every kind of read gives `items` back exactly, ordered by id.
    static func expectEveryRead(_ store: SQLiteStore, table: String, _ items: [JSONObject]) async throws {
        let sorted = items.sorted { ($0["id"]?.stringValue ?? "") < ($1["id"]?.stringValue ?? "") }
        for item in sorted {
            let id = try #require(item["id"]?.stringValue)
            #expect(try await store.lookup(table: table, id: id) == item)
        }
        let ordered = StoreQuery(table: table, ordering: [SortDescriptor("id")])
        #expect(try await store.read(ordered) == sorted)
        #expect(try await store.readJSON(ordered) == sorted.map(\.jsonBytes))
    }

    @Test func everyValueReadsBackExactlyThroughEveryRead() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.newDatabasePath()
        let store = try SQLiteStore(path: path)
        try await store.defineTable(Self.trickyDefinition)
        // Half through a batch of new rows, half through upserts that replace rows.
        let (first, second) = (Array(Self.tricky.prefix(8)), Array(Self.tricky.dropFirst(8)))
        #expect(try await store.write { try $0.insertNew(table: "Tricky", items: first) })
        try await store.write { try $0.upsert(table: "Tricky", items: second + first) }
        try await Self.expectEveryRead(store, table: "Tricky", Self.tricky)
        try await store.close()

        let reopened = try SQLiteStore(path: path)
        try await Self.expectEveryRead(reopened, table: "Tricky", Self.tricky)
        try await reopened.close()
        withExtendedLifetime(directory) {}
    }

    @Test func aPropertyThatBecomesADatePropertyKeepsItsStrings() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.newDatabasePath())
        try await store.defineTable(TableDefinition(name: "Later"))
        let items: [JSONObject] = [
            ["id": "a", "when": "2024-05-01T10:00:00.000Z", "other": "2024-05-01T12:00:00+02:00"],
            ["id": "b", "when": "not a date", "other": 7],
        ]
        try await store.write { try $0.upsert(table: "Later", items: items) }
        try await store.defineTable(TableDefinition(name: "Later", dateProperties: ["when", "other"]))
        try await Self.expectEveryRead(store, table: "Later", items)
        try await store.close()
    }

    @Test func theLookupConnectionReadsWholeRowsInOneSnapshot() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.newDatabasePath())
        try await store.defineTable(TableDefinition(name: "Note"))
        try await store.write { try $0.upsert(table: "Note", items: [Self.item("a"), Self.item("b", body: "short")]) }
        // `lookup` answers on the caller's thread through the lookup connection.
        #expect(try await store.lookup(table: "Note", id: "a") == Self.item("a"))
        #expect(try await store.lookup(table: "Note", id: "b") == Self.item("b", body: "short"))

        // A property seen for the first time gets a column in the same write: the connection learns of it.
        var added = Self.item("c")
        added["summary"] = .bool(true)
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

    /// Another connection (as another process would) adds columns: a lookup through this store's
    /// connection, whose copy of the catalog predates them, still returns every property.
    @Test func aLookupSeesColumnsAnotherConnectionAdded() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.newDatabasePath()
        let store = try SQLiteStore(path: path)
        try await store.defineTable(TableDefinition(name: "Note"))
        try await store.write { try $0.upsert(table: "Note", items: [Self.item("a")]) }
        #expect(try await store.lookup(table: "Note", id: "a") == Self.item("a"))

        let other = try SQLiteStore(path: path)
        var wider = Self.item("w")
        wider["flag"] = .bool(false)
        wider["count"] = .integer(3)
        wider["tags"] = ["x"]
        let item = wider
        try await other.write { try $0.upsert(table: "Note", items: [item]) }
        try await other.close()

        #expect(try await store.lookup(table: "Note", id: "w") == item)
        #expect(
            try await store.read(StoreQuery(table: "Note", ordering: [SortDescriptor("id")])) == [Self.item("a"), item])
        try await store.close()
    }

    /// Reads select every projected column, however wide the table.
    @Test func aWideTableReadsWhole() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.newDatabasePath())
        try await store.defineTable(TableDefinition(name: "Note"))
        var wide = JSONObject(["id": .string("w")])
        for index in 0..<60 {
            wide["p\(index)"] = index % 3 == 0 ? .bool(index % 2 == 0) : .string("value \(index)")
        }
        let item = wide
        #expect(try await store.write { try $0.insertNew(table: "Note", items: [item, Self.item("a")]) })
        try await Self.expectEveryRead(store, table: "Note", [item, Self.item("a")])
        try await store.close()
    }

    /// A closed store file whose table `name` holds `items`, and the directory that keeps it.
    private static func file(_ definition: TableDefinition, _ items: [JSONObject]) async throws
        -> (TemporaryDirectory, String)
    {
        let directory = try TemporaryDirectory()
        let path = directory.newDatabasePath()
        let store = try SQLiteStore(path: path)
        try await store.defineTable(definition)
        try await store.write { try $0.upsert(table: definition.name, items: items) }
        try await store.close()
        return (directory, path)
    }

    /// Rewrites table `name` of the closed file at `path` in catalog layout 3: `_column_only` instead of
    /// `_kinds`, each row's JSON whole but for its strings of 16 bytes or more that are not date-times,
    /// whose column numbers `_column_only` lists.
    private static func rewriteInLayoutThree(path: String, table name: String, items: [JSONObject]) throws {
        let database = try Database(path: path)
        let info = try database.prepare("PRAGMA table_info(\"\(name)\")")
        var projected: [String] = []
        while try info.step() {
            let column = info.text(at: 1) ?? ""
            if column.hasPrefix("c") { projected.append("\"\(column)\"") }
        }
        let list = projected.joined(separator: ", ")
        try database.execute(
            """
            ALTER TABLE "\(name)" RENAME TO layout_now;
            CREATE TABLE "\(name)" (id TEXT PRIMARY KEY NOT NULL, _json TEXT NOT NULL, _column_only TEXT,
                _queued INTEGER, \(list));
            INSERT INTO "\(name)" (id, _json, _queued, \(list)) SELECT id, '', _queued, \(list) FROM layout_now;
            DROP TABLE layout_now;
            """)
        for item in items {
            var listed: [Int] = []
            let json = item.jsonBytes { property, value in
                guard property != "id", case .string(let text) = value, text.utf8.count >= 16,
                    Timestamp(parsing: text) == nil
                else { return false }
                if let number = try? columnNumber(property, table: name, in: database) { listed.append(number) }
                return true
            }
            try database.run(
                "UPDATE \"\(name)\" SET _json = ?, _column_only = ? WHERE id = ?",
                [
                    .text(String(decoding: json, as: UTF8.self)),
                    listed.isEmpty ? .null : .text(listed.sorted().map(String.init).joined(separator: ",")),
                    .text(item["id"]?.stringValue ?? ""),
                ])
        }
        try database.setUserVersion(3)
        try database.close()
    }

    @Test func aFileOfLayoutThreeMovesOverInOneStepAndReadsTheSame() async throws {
        let items = Self.tricky + [Self.item("old")]
        let (directory, path) = try await Self.file(Self.trickyDefinition, items)
        try Self.rewriteInLayoutThree(path: path, table: "Tricky", items: items)
        let before = try Database(path: path)
        #expect(try before.scalar("SELECT count(*) FROM Tricky WHERE _column_only IS NOT NULL") == .integer(3))
        try before.close()

        let reopened = try SQLiteStore(path: path)
        try await Self.expectEveryRead(reopened, table: "Tricky", items)
        try await reopened.write { try $0.upsert(table: "Tricky", items: [Self.item("new")]) }
        try await Self.expectEveryRead(reopened, table: "Tricky", items + [Self.item("new")])
        try await reopened.close()

        let migrated = try Database(path: path)
        #expect(try migrated.userVersion() == SQLiteCatalog.currentVersion)
        #expect(try migrated.scalar("SELECT count(*) FROM Tricky WHERE _column_only IS NOT NULL") == .integer(0))
        // Only the date-time strings that are not their instant's canonical text stay in `_json`.
        let kept = try migrated.prepare("SELECT id FROM Tricky WHERE _json <> '' ORDER BY id")
        var ids: [String] = []
        while try kept.step() { ids.append(kept.text(at: 0) ?? "") }
        #expect(ids == ["dates", "m9"])
        try migrated.close()
        withExtendedLifetime(directory) {}
    }

    /// What a build that reads only older layouts does with a newer layout's files: refuses them at once.
    @Test func aFileOfALaterLayoutIsRefusedWithTheVersionsNamed() async throws {
        let (directory, path) = try await Self.file(TableDefinition(name: "Note"), [Self.item("a")])
        #expect(SQLiteCatalog.currentVersion == 6)
        let database = try Database(path: path)
        try database.setUserVersion(SQLiteCatalog.currentVersion + 1)
        try database.close()
        #expect {
            _ = try SQLiteStore(path: path)
        } throws: { error in
            guard case StoreError.database(_, let message, _) = error else { return false }
            return message.contains("newer SyncTables (layout 7, this one reads 6)")
        }
        withExtendedLifetime(directory) {}
    }

    @Test(arguments: ["x", "0", "99", "3:1q", "3:9b", "3:TITLEb", "3:3b1d"])
    func aKindsListThatDoesNotFitTheRowIsInvalidStoredData(list: String) async throws {
        let (directory, path) = try await Self.file(TableDefinition(name: "Note"), [Self.item("a")])
        let database = try Database(path: path)
        // "TITLE" is the text column of `title`: listing it as a boolean does not fit.
        let title = try #require(try Self.columnNumber("title", table: "Note", in: database))
        let edited = list.replacingOccurrences(of: "TITLE", with: "\(title)")
        try database.run("UPDATE Note SET _kinds = ? WHERE id = 'a'", [.text(edited)])
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

    private static func columnNumber(_ property: String, table: String, in database: Database) throws -> Int? {
        let value = try database.scalar(
            "SELECT column_number FROM __synctables_columns WHERE table_key = ? AND property = ?",
            [.text(table.lowercased()), .text(property)])
        guard case .integer(let number) = value else { return nil }
        return Int(number)
    }
}
