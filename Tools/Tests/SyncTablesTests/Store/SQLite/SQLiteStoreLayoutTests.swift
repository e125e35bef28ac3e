import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@_spi(SyncTablesTools) @testable import SyncTablesSQLite

/// The on-disk layout other tools can rely on: WAL journal, version stamp, projected columns, kinds and JSON.
@Suite("SQLite store layout") struct SQLiteStoreLayoutTests {
    private func storeFile(_ body: (SQLiteStore) async throws -> Void) async throws -> (TemporaryDirectory, Database) {
        let directory = try TemporaryDirectory()
        let path = directory.newDatabasePath()
        let store = try SQLiteStore(path: path)
        try await body(store)
        try await store.close()
        return (directory, try Database(path: path))
    }

    @Test func theFileIsInWALModeAndStampedWithTheLayoutVersion() async throws {
        let (directory, database) = try await storeFile { _ in }
        #expect(try database.scalar("PRAGMA journal_mode") == .text("wal"))
        #expect(try database.userVersion() == 6)
        let queueColumns = try database.prepare("PRAGMA table_info(__synctables_operations)")
        var names: [String] = []
        while try queueColumns.step() { names.append(queueColumns.text(at: 1) ?? "") }
        #expect(
            names == [
                "sequence", "operation_id", "kind", "table_name", "item_id", "item", "state", "version", "created_at",
                "attempts", "ancestor",
            ])
        _ = directory
    }

    @Test func valuesLiveInTheirColumnsAndDatesAsTicks() async throws {
        let (directory, database) = try await storeFile { store in
            try await store.defineTable(TableDefinition(name: "TodoItem"))
            try await store.write {
                try $0.upsert(
                    table: "TodoItem",
                    items: [
                        JSONObject([
                            "id": .string("a"), "updatedAt": .string("1970-01-01T00:00:01.5Z"), "done": .bool(true),
                            "x; DROP TABLE TodoItem": .integer(1),
                        ])
                    ])
            }
        }
        let columns = try database.prepare(
            "SELECT property, column_number FROM __synctables_columns WHERE table_key = 'todoitem'")
        var numbers: [String: Int64] = [:]
        while try columns.step() { numbers[columns.text(at: 0) ?? ""] = columns.integer(at: 1) }
        #expect(Set(numbers.keys) == ["updatedAt", "done", "x; DROP TABLE TodoItem"])
        let updated = try #require(numbers["updatedAt"])
        let done = try #require(numbers["done"])
        #expect(try database.scalar("SELECT c\(updated) FROM TodoItem") == .integer(15_000_000))
        #expect(try database.scalar("SELECT c\(done) FROM TodoItem") == .integer(1))
        // Not the canonical text of its instant ("…01.500Z"): the exact string stays in `_json`.
        #expect(try database.scalar("SELECT _json FROM TodoItem") == .text(#"{"updatedAt":"1970-01-01T00:00:01.5Z"}"#))
        #expect(try database.scalar("SELECT _kinds FROM TodoItem") == .text("\(numbers.values.max() ?? 0):\(done)b"))
        _ = directory
    }

    @Test func eachValueIsStoredOnceAndTheRowListsTheKindsItsColumnsDoNotTell() async throws {
        let long = String(repeating: "long text; ", count: 10)
        let (directory, database) = try await storeFile { store in
            try await store.defineTable(TableDefinition(name: "Note", dateProperties: ["due"]))
            try await store.write {
                try $0.upsert(
                    table: "Note",
                    items: [
                        JSONObject([
                            "id": .string("a"), "body": .string(long), "short": .string("brief"),
                            "due": .string("2024-05-01T10:00:00.000Z"), "gone": .null,
                            "nested": .object(JSONObject(["inner": .string(long)])),
                        ]),
                        JSONObject(["id": .string("b")]),
                    ])
            }
        }
        let columns = try database.prepare(
            "SELECT property, column_number FROM __synctables_columns WHERE table_key = 'note'")
        var numbers: [String: Int64] = [:]
        while try columns.step() { numbers[columns.text(at: 0) ?? ""] = columns.integer(at: 1) }
        let body = try #require(numbers["body"])
        let due = try #require(numbers["due"])
        #expect(try database.scalar("SELECT _json FROM Note WHERE id = 'a'") == .text(""))
        #expect(try database.scalar("SELECT c\(body) FROM Note WHERE id = 'a'") == .text(long))
        #expect(try database.scalar("SELECT c\(due) FROM Note WHERE id = 'a'") == .integer(17_145_576_000_000_000))
        let kinds = [("due", "d"), ("gone", "n"), ("nested", "j")].compactMap { property, kind in
            numbers[property].map { ($0, kind) }
        }.sorted { $0.0 < $1.0 }.map { "\($0.0)\($0.1)" }.joined()
        #expect(
            try database.scalar("SELECT _kinds FROM Note WHERE id = 'a'")
                == .text("\(numbers.values.max() ?? 0):\(kinds)"))
        // A row with nothing but its id.
        #expect(try database.scalar("SELECT _kinds FROM Note WHERE id = 'b'") == .null)
        _ = directory
    }

    @Test func indexesOfTheDefinitionExistInTheFile() async throws {
        let (directory, database) = try await storeFile { store in
            try await store.defineTable(TableDefinition(name: "TodoItem", indexes: [["done", "text"]]))
        }
        let count = try database.scalar(
            "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'TodoItem' AND name LIKE '__synctables_ix_%'"
        )
        #expect(count == .integer(1))
        _ = directory
    }

    @Test func writeBodiesRunOnTheStoresDedicatedThread() async throws {
        let store = try SQLiteStore.inMemory()
        let marker = try await store.write { _ in
            Thread.current.threadDictionary[SerialThreadExecutor.threadMarkerKey] as? String
        }
        #expect(marker == "SyncTablesStore")
    }

    @Test func aFilterWithMoreThan999ConstantsThrowsInvalidQuery() async throws {
        let store = try SQLiteStore.inMemory()
        try await store.defineTable(TableDefinition(name: "T"))
        var filter = FilterExpression.comparison(.lessThan, .property("n"), .value(.integer(0)))
        for value in 1..<1200 {
            filter = .or(filter, .comparison(.lessThan, .property("n"), .value(.integer(Int64(value)))))
        }
        await #expect {
            _ = try await store.read(StoreQuery(table: "T", filter: filter))
        } throws: { error in
            if case StoreError.invalidQuery = error { return true }
            return false
        }
    }
}

/// Running under the store's preferred task executor keeps the caller on the store's thread.
@Test func codeUnderThePreferredTaskExecutorRunsOnTheStoresThread() async throws {
    let store = try SQLiteStore.inMemory()
    let executor = try #require(store.preferredTaskExecutor)
    let marker = await withTaskExecutorPreference(executor) { currentThreadMarker() }
    #expect(marker == "SyncTablesStore")
    #expect(MemoryStore().preferredTaskExecutor == nil)
}

/// The executor marker of the thread this runs on (a synchronous function, as `Thread.current` must be).
func currentThreadMarker() -> String? {
    Thread.current.threadDictionary[SerialThreadExecutor.threadMarkerKey] as? String
}

/// Inside a write body the caller may rely on being isolated to the store (the runtime can check it).
@Test func aWriteBodyIsIsolatedToTheStore() async throws {
    let store = try SQLiteStore.inMemory()
    let isolated = try await store.write { _ in
        store.assumeIsolated { _ in true }
    }
    #expect(isolated)
}

/// The page cache is 16 MiB unless configured; `synchronous` follows the configuration too.
@Test(arguments: [nil, 1_024])
func theConnectionUsesTheConfiguredCacheSize(cacheSizeKiB: Int?) async throws {
    let directory = try TemporaryDirectory()
    var configuration = SQLiteStore.Configuration(synchronous: .full)
    if let cacheSizeKiB { configuration.cacheSizeKiB = cacheSizeKiB }
    let store = try SQLiteStore(path: directory.newDatabasePath(), configuration: configuration)
    let (cache, synchronous) = try await store.withDatabase { database in
        (try database.scalar("PRAGMA cache_size"), try database.scalar("PRAGMA synchronous"))
    }
    #expect(cache == .integer(-Int64(cacheSizeKiB ?? 16_384)))
    #expect(synchronous == .integer(2))  // FULL
    try await store.close()
}
