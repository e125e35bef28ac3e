import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Live queries emit the current result, then again after every committed local change.
@Suite("Live queries")
struct ObserveTests {
    @Test(arguments: ContextStoreKind.allCases)
    func observeEmitsTheCurrentResultThenAfterEachChange(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        try await todos.insert(ContextTodo(id: "a", text: "milk"))
        var results = todos.query().filter(Column("complete") == false).observe().makeAsyncIterator()

        let initial = try await results.next()
        try await todos.insert(ContextTodo(id: "b", text: "bread"))
        let afterInsert = try await results.next()
        try await todos.update(ContextTodo(id: "a", text: "milk", complete: true))
        let afterUpdate = try await results.next()
        try await todos.delete(id: "b")
        let afterDelete = try await results.next()

        #expect(initial?.map(\.id) == ["a"])
        #expect(afterInsert?.map(\.id) == ["a", "b"])
        #expect(afterUpdate?.map(\.id) == ["b"])
        #expect(afterDelete?.map(\.id) == [])
    }

    @Test(arguments: ContextStoreKind.allCases)
    func observeIgnoresChangesToOtherTables(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        let notes = try await context.table(JSONObject.self, named: "Note")
        var results = todos.query().observe().makeAsyncIterator()
        _ = try await results.next()

        try await notes.insert(["id": "n"])
        try await todos.insert(ContextTodo(id: "a", text: "milk"))

        #expect(try await results.next()?.map(\.id) == ["a"])
    }

    @Test(arguments: ContextStoreKind.allCases)
    func observeEndsWhenTheContextCloses(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        var results = todos.query().observe().makeAsyncIterator()
        _ = try await results.next()

        try await context.close()

        #expect(try await results.next() == nil)
    }
}
