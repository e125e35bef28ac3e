import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("Queue limit (maxQueueSize)")
struct QueueLimitTests {
    @Test(arguments: ContextStoreKind.allCases)
    func aWriteThatWouldQueueBeyondTheLimitIsRefusedAndChangesNothing(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext(configuration: SyncContext.Configuration(maxQueueSize: 2))
        let todos = try await context.table(ContextTodo.self)
        try await todos.insert(ContextTodo(id: "a", text: "one"))
        try await todos.insert(ContextTodo(id: "b", text: "two"))

        await #expect(throws: SyncError.queueFull(limit: 2)) {
            try await todos.insert(ContextTodo(id: "c", text: "three"))
        }
        #expect(try await todos.lookup(id: "c") == nil)
        #expect(try await context.pendingOperationCount() == 2)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func aWriteThatCollapsesIntoAQueuedOperationIsAllowedAtTheLimit(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext(configuration: SyncContext.Configuration(maxQueueSize: 1))
        let todos = try await context.table(ContextTodo.self)
        try await todos.insert(ContextTodo(id: "a", text: "one"))

        try await todos.update(ContextTodo(id: "a", text: "changed"))
        try await todos.delete(ContextTodo(id: "a", text: "changed"))

        #expect(try await context.pendingOperationCount() == 0)  // insert then delete: nothing to send
    }

    @Test(arguments: ContextStoreKind.allCases)
    func aBatchThatWouldCrossTheLimitIsRefusedWhole(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext(configuration: SyncContext.Configuration(maxQueueSize: 3))
        let todos = try await context.table(ContextTodo.self)
        try await todos.insert(ContextTodo(id: "a", text: "one"))

        await #expect(throws: SyncError.queueFull(limit: 3)) {
            _ = try await todos.insert(contentsOf: (0..<3).map { ContextTodo(id: "n\($0)", text: "new") })
        }
        #expect(try await context.pendingOperationCount() == 1)
        #expect(try await todos.lookup(id: "n0") == nil)

        // A context without a limit on the same store queues them.
        let unlimited = try await SyncContext(store: context.store)
        _ = try await unlimited.table(ContextTodo.self).insert(
            contentsOf: (0..<3).map { ContextTodo(id: "n\($0)", text: "new") })
        #expect(try await context.pendingOperationCount() == 4)
    }
}
