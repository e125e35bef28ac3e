import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// A local write commits its rows and operations together or not at all.
@Suite("Atomic local writes")
struct AtomicityTests {
    @Test(arguments: ContextStoreKind.allCases, [1, 2])
    func batchInsertFailingPartWayLeavesNothingWithInjectedFailingStore(
        kind: ContextStoreKind,
        failingCall: Int
    ) async throws {
        let store = FailingTransactionStore(base: try kind.makeStore())
        let context = try await SyncContext(store: store)
        let todos = try await context.table(ContextTodo.self)
        try await todos.insert(contentsOf: [ContextTodo(id: "a", text: "1"), ContextTodo(id: "b", text: "2")])
        let before = try await ContextSnapshot.take(context)
        // Call 1 writes the rows, call 2 the operations: failing either must roll back both.
        store.counter.arm(failingCall: failingCall)

        await #expect(throws: SyncError.self) {
            try await todos.insert(contentsOf: (0..<50).map { ContextTodo(id: "new\($0)", text: "\($0)") })
        }

        #expect(try await ContextSnapshot.take(context) == before)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func collapseFailingPartWayLeavesRowAndOperationWithInjectedFailingStore(kind: ContextStoreKind) async throws {
        let store = FailingTransactionStore(base: try kind.makeStore())
        let context = try await SyncContext(store: store)
        let todos = try await context.table(ContextTodo.self)
        try await context.storePulled([["id": "a", "text": "0"]])
        try await todos.update(ContextTodo(id: "a", text: "1"))
        let before = try await ContextSnapshot.take(context)
        // Call 1 deletes the row; call 2 would convert the operation.
        store.counter.arm(failingCall: 2)

        await #expect(throws: SyncError.self) {
            try await todos.delete(id: "a")
        }

        #expect(try await ContextSnapshot.take(context) == before)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func aBatchWithOneBadItemStoresNone(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        try await todos.insert(ContextTodo(id: "taken", text: "0"))
        let before = try await ContextSnapshot.take(context)

        await #expect(
            throws: SyncError.pendingOperationConflict(
                table: "ContextTodo", id: "taken", existing: .insert, attempted: .insert)
        ) {
            try await todos.insert(contentsOf: [ContextTodo(id: "x", text: "1"), ContextTodo(id: "taken", text: "2")])
        }
        await #expect(
            throws: SyncError.pendingOperationConflict(
                table: "ContextTodo", id: "dup", existing: .insert, attempted: .insert)
        ) {
            try await todos.insert(contentsOf: [ContextTodo(id: "dup", text: "1"), ContextTodo(id: "dup", text: "2")])
        }

        #expect(try await ContextSnapshot.take(context) == before)
    }

    /// Batches of inserts are written without lookups; the keys refuse a stored or queued id and the batch
    /// is then worked out item by item, so these must give the same errors and leave nothing behind.
    @Test(arguments: ContextStoreKind.allCases)
    func aBatchOfInsertsClashingWithAPulledRowOrAQueuedUpdateStoresNone(kind: ContextStoreKind) async throws {
        let store = try kind.makeStore()
        let context = try await SyncContext(store: store)
        let todos = try await context.table(ContextTodo.self)
        // A row with no operation (as a pull leaves it) and a queued update whose row was removed by hand.
        try await store.write {
            try $0.upsert(table: "ContextTodo", items: [["id": "pulled", "text": "server"], ["id": "remote"]])
        }
        try await todos.update(ContextTodo(id: "remote", text: "edited"))
        try await store.write { _ = try $0.delete(table: "ContextTodo", ids: ["remote"]) }
        let before = try await ContextSnapshot.take(context)

        await #expect(throws: SyncError.duplicateInsert(table: "ContextTodo", id: "pulled")) {
            try await todos.insert(contentsOf: [ContextTodo(id: "x", text: "1"), ContextTodo(id: "pulled", text: "2")])
        }
        await #expect(
            throws: SyncError.pendingOperationConflict(
                table: "ContextTodo", id: "remote", existing: .update, attempted: .insert)
        ) {
            // The rows go in first here; the queue refuses, and the rows must be taken out again.
            try await todos.insert(contentsOf: [ContextTodo(id: "y", text: "1"), ContextTodo(id: "remote", text: "2")])
        }
        await #expect(throws: SyncError.duplicateInsert(table: "ContextTodo", id: "pulled")) {
            try await todos.insert(ContextTodo(id: "pulled", text: "3"))
        }
        #expect(try await ContextSnapshot.take(context) == before)

        // A clean batch afterwards queues behind the update, in order.
        try await todos.insert(contentsOf: [ContextTodo(id: "y", text: "1"), ContextTodo(id: "z", text: "2")])
        let queued = try await context.pendingOperations()
        #expect(queued.map(\.itemId) == ["remote", "y", "z"])
        #expect(queued.map(\.sequence) == queued.map(\.sequence).sorted())
    }

    @Test(arguments: ContextStoreKind.allCases)
    func readersNeverSeeHalfABatch(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        let batch = (0..<2_000).map { ContextTodo(id: "i\($0)", text: "\($0)") }

        let writer = Task { try await todos.insert(contentsOf: batch) }
        var observed: Set<Int> = []
        while true {
            let count = try await todos.query().fetchCount()
            observed.insert(count)
            if count == batch.count { break }
            await Task.yield()
        }
        _ = try await writer.value

        #expect(observed.isSubset(of: [0, batch.count]))
        #expect(try await context.pendingOperationCount() == batch.count)
    }
}
