import Logging
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// A keyset page after a boundary is read as several slices (the rows tied with the boundary, then those
/// after it); on PostgreSQL they are read in one snapshot, so a row that changes meanwhile is in the page once.
@Suite("Keyset page slices in one snapshot (PostgreSQL)")
struct KeysetSnapshotTests {
    @Test(.enabled(if: TestBackend.postgresURL != nil))
    func aRowUpdatedBetweenTwoSliceReadsIsInThePageOnceAsItWas() async throws {
        let database = try TestBackend.freshPostgresDatabase()
        let storage = try await PostgresTableStorage.open(database, logger: Logger(label: "test"))
        do {
            // Given a and b tied on updatedAt, and a page boundary after a
            _ = try await storage.prepareTable("todo", scopeColumn: nil)
            let tie = "2026-01-01T00:00:00.000Z"
            _ = try await storage.seed(
                table: "todo",
                items: [
                    ["id": "a", "text": "old", "updatedAt": .string(tie)],
                    ["id": "b", "text": "old", "updatedAt": .string(tie)],
                ]
            ) { item, stamp in item["version"] = .string(stamp.version) }
            let ordering = [SortDescriptor("updatedAt")]
            let slices = Keyset(values: [.string(tie)], id: "a").slicesAfter(ordering: ordering).map {
                StoreQuery(table: "todo", filter: $0, ordering: ordering)
            }
            try #require(slices.count == 2)

            // When b is updated (moving it past the tie, into the second slice) after the first slice is read
            let rows = try await storage.selectInOneSnapshot(slices, limit: 50) {
                try await storage.change(table: "todo", id: "b") { existing, stamp in
                    var item = existing ?? [:]
                    item["text"] = "new"
                    TableService.stamp(&item, with: stamp)
                    return (.upsert(item), ())
                }
            }.map(\.object)

            // Then the page has b once, as it was when the page's read began; the next read sees the update
            #expect(rows.map { $0.string("id") } == ["b"])
            #expect(rows.first?.string("text") == "old")
            let after = try await storage.read(slices[1])
            #expect(after.map { $0.string("text") } == ["new"])
        } catch {
            try? await storage.close()
            try? await TestBackend.dropSchema(of: database)
            throw error
        }
        try await storage.close()
        try await TestBackend.dropSchema(of: database)
    }
}
