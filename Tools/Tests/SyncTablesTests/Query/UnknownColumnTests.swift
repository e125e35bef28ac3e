import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// A filter on a property the table cannot have is a typo: it throws a typed error naming it and the
/// nearest known name, instead of matching nothing (or, negated, everything).
@Suite("Unknown columns")
struct UnknownColumnTests {
    /// A type with a property no stored row has yet (`note` is optional and never set here).
    struct Task: SyncItem {
        var id: String
        var complete: Bool
        var note: String?

        enum CodingKeys: String, CodingKey {
            case id, complete, note
        }
    }

    private func seeded(_ kind: ContextStoreKind) async throws -> (SyncContext, SyncTable<Task>) {
        let context = try await kind.makeContext()
        let tasks = try await context.table(Task.self)
        try await tasks.insert(contentsOf: [Task(id: "a", complete: true), Task(id: "b", complete: false)])
        return (context, tasks)
    }

    @Test func aPullWhoseFilterNamesAMisspelledPropertyThrowsBeforeSendingOrStoringAnything() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            let todos = device.todos
            let expected = SyncError.unknownColumn("compelte", table: "TodoItem", nearest: "complete")

            await #expect(throws: expected) {
                try await todos.pull(todos.query().filter(Column("compelte") == false), queryId: "open")
            }
            #expect(try await harness.takeRequests(includingExtensions: true).isEmpty)
            #expect(try await device.context.pullStates(table: "TodoItem").isEmpty)  // no token saved

            // A dynamic table the store never held has no known columns: the server judges its filter.
            let notes = try await device.context.table(JSONObject.self, named: "Note")
            try await notes.pull(notes.query().filter(Column("body") == "x"), queryId: "x")
            try await device.context.close()
        }
    }

    @Test(arguments: ContextStoreKind.allCases)
    func aTypedQueryOnAMisspelledPropertyThrowsNamingTheNearestOne(kind: ContextStoreKind) async throws {
        let (_, tasks) = try await seeded(kind)
        let expected = SyncError.unknownColumn("compelte", table: "Task", nearest: "complete")

        await #expect(throws: expected) { try await tasks.query().filter(Column("compelte") == true).fetchAll() }
        await #expect(throws: expected) { try await tasks.query().filter(!(Column("compelte") == true)).fetchCount() }
        #expect(
            expected.description
                == "Table 'Task' has no column \"compelte\": no item ever had it and the item type does not declare "
                + "it. Did you mean \"complete\"? Column(Item.CodingKeys.…) lets the compiler check names.")
    }

    @Test(arguments: ContextStoreKind.allCases)
    func aTypedQueryMayNameADeclaredPropertyNoRowHasYetAndSystemProperties(kind: ContextStoreKind) async throws {
        let (_, tasks) = try await seeded(kind)

        #expect(try await tasks.query().filter(Column("note") == nil).fetchCount() == 2)
        #expect(
            try await tasks.query().filter(Column("updatedAt") == nil && Column("version") == nil).fetchCount() == 2)
        #expect(try await tasks.query().filter(Column(Task.CodingKeys.complete) == true).fetchAll().map(\.id) == ["a"])
    }

    @Test(arguments: ContextStoreKind.allCases)
    func anUntypedQueryMayNameOnlyPropertiesSomeRowHad(kind: ContextStoreKind) async throws {
        let (context, _) = try await seeded(kind)
        let raw = try await context.table(JSONObject.self, named: "Task")

        #expect(try await raw.query().filter(Column("complete") == false).fetchCount() == 1)
        await #expect(throws: SyncError.unknownColumn("note", table: "Task", nearest: nil)) {
            try await raw.query().filter(Column("note") == nil).fetchAll()
        }
        // Once a row had it, the name is known for good, even after that row is gone.
        try await raw.insert(["id": "c", "note": "x"])
        try await raw.delete(id: "c")
        #expect(try await raw.query().filter(Column("note") == nil).fetchCount() == 2)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func aPurgeFilteredOnAMisspelledPropertyThrowsAndPurgesNothing(kind: ContextStoreKind) async throws {
        let (context, tasks) = try await seeded(kind)
        let before = try await ContextSnapshot.take(context, table: "Task")
        let typo = FilterExpression.not(.comparison(.equal, .property("compelte"), .value(true)))
        let expected = SyncError.unknownColumn("compelte", table: "Task", nearest: "complete")

        await #expect(throws: expected) {
            try await context.purge(table: "Task", query: StoreQuery(table: "Task", filter: typo), force: true)
        }
        await #expect(throws: expected) {
            try await context.purgePreview(table: "Task", query: StoreQuery(table: "Task", filter: typo))
        }
        await #expect(throws: expected) { try await tasks.purge(tasks.query().filter(typo), force: true) }

        #expect(try await ContextSnapshot.take(context, table: "Task") == before)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func theNearestNameIgnoresCaseAndIsOnlyOfferedWhenItIsClose(kind: ContextStoreKind) async throws {
        let (_, tasks) = try await seeded(kind)

        await #expect(throws: SyncError.unknownColumn("updatedat", table: "Task", nearest: "updatedAt")) {
            try await tasks.query().filter(Column("updatedat") == nil).fetchAll()
        }
        await #expect(throws: SyncError.unknownColumn("zzzzzz", table: "Task", nearest: nil)) {
            try await tasks.query().filter(Column("zzzzzz") == nil).fetchAll()
        }
        #expect(!SyncError.unknownColumn("zzzzzz", table: "Task", nearest: nil).description.contains("Did you mean"))
    }
}
