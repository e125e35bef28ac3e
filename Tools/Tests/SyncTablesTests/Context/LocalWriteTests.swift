import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// What local inserts, updates, deletes and lookups store and return.
@Suite("Local writes")
struct LocalWriteTests {
    @Test(arguments: ContextStoreKind.allCases)
    func insertWithAnEmptyIdGeneratesOneAndReturnsIt(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)

        let saved = try await todos.insert(ContextTodo(text: "milk"))

        #expect(!saved.id.isEmpty)
        #expect(ItemID.isValid(saved.id))
        #expect(try await todos.lookup(id: saved.id) == saved)
        #expect(try await context.pendingOperations().map(\.itemId) == [saved.id])
    }

    @Test(arguments: ContextStoreKind.allCases)
    func insertStripsServerOwnedPropertiesButKeepsVersion(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let raw = try await context.table(JSONObject.self, named: "Thing")

        let saved = try await raw.insert([
            "id": "a", "text": "x", "version": "v1", "createdAt": "2024-01-01T00:00:00.000Z",
            "updatedAt": "2024-01-02T00:00:00.000Z", "deleted": false,
        ])

        #expect(saved == ["id": "a", "text": "x", "version": "v1"])
        #expect(try await raw.lookup(id: "a") == ["id": "a", "text": "x", "version": "v1"])
    }

    @Test(arguments: ContextStoreKind.allCases)
    func updateKeepsTheStoredServerTimestampsAndVersion(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let raw = try await context.table(JSONObject.self, named: "Thing")
        let pulled: JSONObject = [
            "id": "a", "text": "x", "version": "v3",
            "createdAt": "2024-01-01T00:00:00.000Z", "updatedAt": "2024-01-02T00:00:00.000Z",
        ]
        try await context.store.write { try $0.upsert(table: "Thing", items: [pulled]) }

        try await raw.update(["id": "a", "text": "y", "updatedAt": "2030-01-01T00:00:00.000Z", "deleted": true])

        let stored = try #require(try await raw.lookup(id: "a"))
        #expect(stored["text"] == "y")
        #expect(stored["version"] == "v3")
        #expect(stored["createdAt"] == "2024-01-01T00:00:00.000Z")
        #expect(stored["updatedAt"] == "2024-01-02T00:00:00.000Z")
        #expect(stored["deleted"] == nil)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func typedAndUntypedHandlesShareOneTable(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        let raw = try await context.table(JSONObject.self, named: "ContextTodo")

        try await raw.insert(["id": "a", "text": "milk", "complete": true, "extra": [1, 2]])

        let typed = try #require(try await todos.lookup(id: "a"))
        #expect(typed.text == "milk")
        #expect(typed.complete == true)
        #expect(try await raw.lookup(id: "a")?["extra"] == [1, 2])
    }

    @Test(arguments: ContextStoreKind.allCases)
    func tableNamesAreCaseInsensitiveAndKeepTheFirstSpelling(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self, named: "TodoItem")
        let lower = try await context.table(JSONObject.self, named: "todoitem")
        try await todos.insert(ContextTodo(id: "a", text: "milk"))

        try await lower.update(["id": "a", "text": "oat milk", "complete": false])

        #expect(lower.name == "TodoItem")
        #expect(try await context.pendingOperations().map(\.table) == ["TodoItem"])
        #expect(try await todos.lookup(id: "a")?.text == "oat milk")
    }

    @Test(arguments: ContextStoreKind.allCases)
    func deleteByItemStoresTheRowAsItWasWhenDeleted(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        let pulled: JSONObject = ["id": "a", "text": "milk", "complete": false, "version": "v9"]
        try await context.store.write { try $0.upsert(table: "ContextTodo", items: [pulled]) }

        try await todos.delete(ContextTodo(id: "a", text: "stale copy"))

        #expect(try await context.pendingOperations().first?.item == pulled)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func lookupOfAnAbsentIdIsNil(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)

        #expect(try await todos.lookup(id: "nothing") == nil)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func idsAreCaseSensitive(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)

        try await todos.insert(ContextTodo(id: "ONE", text: "upper"))
        try await todos.insert(ContextTodo(id: "one", text: "lower"))

        #expect(try await todos.lookup(id: "ONE")?.text == "upper")
        #expect(try await todos.lookup(id: "one")?.text == "lower")
        #expect(try await context.pendingOperationCount() == 2)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func localWritesAreReportedAsEventsAfterCommit(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        var events = context.events.makeAsyncIterator()

        try await todos.insert(contentsOf: [ContextTodo(id: "a", text: "1"), ContextTodo(id: "b", text: "2")])
        try await todos.update(ContextTodo(id: "a", text: "one"))
        try await todos.delete(id: "b")

        #expect(await events.next() == .itemsInserted(table: "ContextTodo", ids: ["a", "b"]))
        #expect(await events.next() == .itemUpdated(table: "ContextTodo", id: "a"))
        #expect(await events.next() == .itemDeleted(table: "ContextTodo", id: "b"))
    }

    @Test(arguments: ContextStoreKind.allCases)
    func dateOnlyTypedPropertiesBecomeDateProperties(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()

        _ = try await context.table(ContextTodo.self)

        let definition = try #require(try await context.store.tableDefinitions().first { $0.name == "ContextTodo" })
        #expect(definition.dateProperties.isSuperset(of: ["due", "createdAt", "updatedAt"]))
        #expect(!definition.dateProperties.contains("text"))
    }
}
