import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@_spi(SyncTablesTools) @testable import SyncTablesSQLite

/// `SQLiteStore.lookup` on a file store answers from a second connection on the caller's thread; it must
/// answer exactly what the store's own connection would.
@Suite("SQLite lookups") struct SQLiteStoreLookupTests {
    @Test func aLookupSeesEveryCommittedWriteAsSoonAsTheWriteReturns() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.newDatabasePath())
        try await store.defineTable(TableDefinition(name: "T"))
        for round in 0..<50 {
            let item = JSONObject(["id": .string("a"), "n": .integer(Int64(round))])
            try await store.write { try $0.upsert(table: "T", items: [item]) }
            #expect(try await store.lookup(table: "T", id: "a") == item)
        }
        _ = try await store.write { try $0.delete(table: "T", ids: ["a"]) }
        #expect(try await store.lookup(table: "T", id: "a") == nil)
        try await store.close()
    }

    @Test func aTableCreatedInsideAWriteIsFoundAfterTheWrite() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.newDatabasePath())
        try await store.write { transaction in
            try transaction.defineTable(TableDefinition(name: "Later"))
            try transaction.upsert(table: "Later", items: [["id": "x", "text": "made in the write"]])
        }
        #expect(try await store.lookup(table: "later", id: "x") == ["id": "x", "text": "made in the write"])
        try await store.close()
    }

    @Test func aLookupInAnUnknownOrReservedTableThrowsLikeTheStore() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.newDatabasePath())
        try await store.defineTable(TableDefinition(name: "T"))
        await #expect(throws: StoreError.unknownTable("Missing")) {
            _ = try await store.lookup(table: "Missing", id: "a")
        }
        // The store's bookkeeping tables exist in SQL but are not tables of the store.
        await #expect(throws: StoreError.invalidTableName("__synctables_tables")) {
            _ = try await store.lookup(table: "__synctables_tables", id: "T")
        }
        try await store.close()
    }

    @Test func aLookupAfterCloseThrowsClosed() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.newDatabasePath())
        try await store.defineTable(TableDefinition(name: "T"))
        try await store.write { try $0.upsert(table: "T", items: [["id": "a"]]) }
        try await store.close()
        await #expect(throws: StoreError.closed) {
            _ = try await store.lookup(table: "T", id: "a")
        }
    }

    @Test func aRowWhoseStoredJSONIsDamagedThrowsInvalidStoredData() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.newDatabasePath()
        let store = try SQLiteStore(path: path)
        try await store.defineTable(TableDefinition(name: "T"))
        try await store.write { try $0.upsert(table: "T", items: [["id": "a"]]) }
        // Damage the row from outside, as another program could.
        let outside = try Database(path: path)
        try outside.execute("UPDATE \"T\" SET _json = '{not json' WHERE id = 'a'")
        try outside.close()

        await #expect {
            _ = try await store.lookup(table: "T", id: "a")
        } throws: { error in
            if case StoreError.invalidStoredData(table: "T", id: "a", _) = error { return true }
            return false
        }
        try await store.close()
    }

    @Test func concurrentLookupsAndWritesAllSeeWholeRows() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.newDatabasePath())
        try await store.defineTable(TableDefinition(name: "T"))
        let ids = (0..<20).map { "item\($0)" }
        try await store.write { transaction in
            try transaction.upsert(table: "T", items: ids.map { ["id": .string($0), "n": 0, "twin": 0] })
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for round in 1...100 {
                    let items = ids.map {
                        JSONObject(["id": .string($0), "n": .integer(Int64(round)), "twin": .integer(Int64(round))])
                    }
                    try await store.write { try $0.upsert(table: "T", items: items) }
                }
            }
            for _ in 0..<3 {
                group.addTask {
                    for index in 0..<500 {
                        let row = try #require(try await store.lookup(table: "T", id: ids[index % ids.count]))
                        #expect(row["n"] == row["twin"])
                    }
                }
            }
            try await group.waitForAll()
        }
        try await store.close()
    }
}
