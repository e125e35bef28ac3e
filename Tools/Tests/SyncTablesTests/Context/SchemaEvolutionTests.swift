import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Item types can grow new properties without losing old rows.
@Suite("Schema evolution")
struct SchemaEvolutionTests {
    struct NoteV1: SyncItem, Equatable {
        var id: String
        var title: String
    }

    struct NoteV2: SyncItem, Equatable {
        var id: String
        var title: String
        var pinned: Bool?
        var remindAt: Date?
    }

    @Test func oldRowsReadWithTheNewTypeAfterReopen() async throws {
        let path = ContextTemporaryFile.make().path
        let first = try await SyncContext(store: try SQLiteStore(path: path))
        try await first.table(NoteV1.self, named: "Note").insert(NoteV1(id: "old", title: "before"))
        try await first.close()

        let reopened = try await SyncContext(store: try SQLiteStore(path: path))
        let notes = try await reopened.table(NoteV2.self, named: "Note")
        let remindAt = Date(timeIntervalSince1970: 1_800_000_000)
        try await notes.insert(NoteV2(id: "new", title: "after", pinned: true, remindAt: remindAt))

        #expect(try await notes.lookup(id: "old") == NoteV2(id: "old", title: "before", pinned: nil, remindAt: nil))
        #expect(try await notes.lookup(id: "new")?.pinned == true)
        #expect(try await notes.query().filter(Column("pinned") == true).fetchAll().map(\.id) == ["new"])
        #expect(try await notes.query().filter(Column("remindAt") > Date(timeIntervalSince1970: 0)).fetchCount() == 1)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func oldAndNewTypesShareATableInOneContext(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let old = try await context.table(NoteV1.self, named: "Note")
        try await old.insert(NoteV1(id: "old", title: "before"))

        let new = try await context.table(NoteV2.self, named: "Note")
        try await new.insert(NoteV2(id: "new", title: "after", pinned: false))

        #expect(try await new.query().order(Column("id")).fetchAll().map(\.pinned) == [false, nil])
        #expect(try await old.lookup(id: "new") == NoteV1(id: "new", title: "after"))
    }
}
