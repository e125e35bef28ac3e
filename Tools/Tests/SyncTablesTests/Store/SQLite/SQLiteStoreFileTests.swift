import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@_spi(SyncTablesTools) @testable import SyncTablesSQLite

/// What `SQLiteStore` does with real files: persistence, damaged files, bad locations, full disks, locks.
@Suite("SQLite store files") struct SQLiteStoreFileTests {
    private let item = JSONObject([
        "id": .string("a"), "text": .string("Buy milk"), "due": .string("2024-05-01T10:00:00Z"),
    ])

    @Test func reopeningAFileKeepsTablesDefinitionsAndRows() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.newDatabasePath()
        let first = try SQLiteStore(path: path)
        try await first.defineTable(TableDefinition(name: "TodoItem", dateProperties: ["due"], indexes: [["text"]]))
        try await first.write { [item] in try $0.upsert(table: "TodoItem", items: [item]) }
        try await first.close()

        let reopened = try SQLiteStore(path: path)
        let definition = try await reopened.tableDefinitions().first
        #expect(definition == TableDefinition(name: "TodoItem", dateProperties: ["due"], indexes: [["text"]]))
        #expect(try await reopened.lookup(table: "TodoItem", id: "a") == item)
        let due = FilterExpression.comparison(
            .equal, .property("due"), .timestamp(Timestamp(ticks: 17_145_576_000_000_000)))
        #expect(try await reopened.count(StoreQuery(table: "TodoItem", filter: due)) == 1)
    }

    @Test func aFileOfRandomBytesIsCorruptAndLeftUnchanged() throws {
        let directory = try TemporaryDirectory()
        let path = directory.newDatabasePath()
        var generator = SystemRandomNumberGenerator()
        // Not a whole number of 1024-byte pages: a whole number would be taken for an encrypted database.
        let bytes = Data((0..<5000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try bytes.write(to: URL(fileURLWithPath: path))

        #expect {
            _ = try SQLiteStore(path: path)
        } throws: { error in
            if case StoreError.corrupt = error { return true }
            return false
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func aTruncatedFileIsTruncatedAndLeftUnchanged() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.newDatabasePath()
        let store = try SQLiteStore(path: path)
        try await store.defineTable(TableDefinition(name: "T"))
        let items = (0..<2000).map {
            JSONObject(["id": .string("item\($0)"), "text": .string(String(repeating: "x", count: 200))])
        }
        try await store.write { try $0.upsert(table: "T", items: items) }
        try await store.close()
        let full = try Data(contentsOf: URL(fileURLWithPath: path))
        let truncated = full.prefix(full.count / 2)
        try truncated.write(to: URL(fileURLWithPath: path))

        #expect {
            _ = try SQLiteStore(path: path)
        } throws: { error in
            if case StoreError.truncated = error { return true }
            return false
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == truncated)
    }

    @Test func aPathInAMissingDirectoryCannotBeOpened() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("missing/store.sqlite").path
        #expect {
            _ = try SQLiteStore(path: path)
        } throws: { error in
            guard case StoreError.cannotOpen(let failedPath, let message) = error else { return false }
            return failedPath == path && !message.isEmpty
        }
    }

    @Test func aPathThatIsADirectoryCannotBeOpened() throws {
        let directory = try TemporaryDirectory()
        #expect {
            _ = try SQLiteStore(path: directory.url.path)
        } throws: { error in
            if case StoreError.cannotOpen = error { return true }
            return false
        }
    }

    @Test(.enabled(if: getuid() != 0, "root ignores file permissions"))
    func aFileWithoutWritePermissionIsReadOnly() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.newDatabasePath()
        try await SQLiteStore(path: path).close()
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        #expect {
            _ = try SQLiteStore(path: path)
        } throws: { error in
            if case StoreError.readOnly = error { return true }
            return false
        }
    }

    @Test func aFullDatabaseWithMaxPageCountLimitThrowsFullAndKeepsEarlierRows() async throws {
        let directory = try TemporaryDirectory()
        // A real SQLITE_FULL: the engine refuses to grow the file past the page limit.
        let store = try SQLiteStore(path: directory.newDatabasePath()) { database in
            try database.execute("PRAGMA max_page_count = 16")
        }
        try await store.defineTable(TableDefinition(name: "T"))
        try await store.write { try $0.upsert(table: "T", items: [JSONObject(["id": .string("kept")])]) }
        let big = (0..<200).map {
            JSONObject(["id": .string("big\($0)"), "text": .string(String(repeating: "y", count: 1000))])
        }

        await #expect {
            try await store.write { try $0.upsert(table: "T", items: big) }
        } throws: { error in
            if case StoreError.full = error { return true }
            return false
        }
        #expect(try await store.count(StoreQuery(table: "T")) == 1)
        #expect(try await store.lookup(table: "T", id: "kept") != nil)
    }

    @Test func aWriteWhileAnotherConnectionHoldsTheLockThrowsBusy() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.newDatabasePath()
        let store = try SQLiteStore(path: path, configuration: .init(busyTimeoutMilliseconds: 50))
        try await store.defineTable(TableDefinition(name: "T"))
        let other = try Database(path: path)
        try other.execute("BEGIN IMMEDIATE")

        await #expect {
            try await store.write { try $0.upsert(table: "T", items: [JSONObject(["id": .string("a")])]) }
        } throws: { error in
            if case StoreError.busy = error { return true }
            return false
        }
        try other.execute("ROLLBACK")
        try await store.write { try $0.upsert(table: "T", items: [JSONObject(["id": .string("a")])]) }
        #expect(try await store.count(StoreQuery(table: "T")) == 1)
    }

    @Test func aLayoutFromANewerVersionIsRefused() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.newDatabasePath()
        try await SQLiteStore(path: path).close()
        let raw = try Database(path: path)
        try raw.setUserVersion(99)
        try raw.close()
        #expect {
            _ = try SQLiteStore(path: path)
        } throws: { error in
            guard case StoreError.database(_, let message, _) = error else { return false }
            return message.contains("newer")
        }
    }

    @Test func aRowWhoseJSONWasDamagedOutsideTheStoreThrowsInvalidStoredData() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.newDatabasePath()
        let store = try SQLiteStore(path: path)
        try await store.defineTable(TableDefinition(name: "T"))
        try await store.write { try $0.upsert(table: "T", items: [JSONObject(["id": .string("a")])]) }
        let other = try Database(path: path)
        try other.execute("UPDATE T SET _json = '{not json' WHERE id = 'a'")
        try other.close()

        await #expect {
            _ = try await store.lookup(table: "T", id: "a")
        } throws: { error in
            guard case StoreError.invalidStoredData(let table, let id, _) = error else { return false }
            return table == "T" && id == "a"
        }
    }
}
