import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// The queue operations push and tools rely on.
@Suite("Operation queue")
struct OperationQueueTests {
    private func contextWithThreeOperations(_ kind: ContextStoreKind) async throws -> SyncContext {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        let notes = try await context.table(JSONObject.self, named: "Note")
        try await todos.insert(ContextTodo(id: "a", text: "milk"))
        try await notes.insert(["id": "n", "body": "hello"])
        try await todos.insert(ContextTodo(id: "b", text: "bread"))
        return context
    }

    @Test(arguments: ContextStoreKind.allCases)
    func operationsComeBackInSequenceOrderAcrossTables(kind: ContextStoreKind) async throws {
        let context = try await contextWithThreeOperations(kind)

        let operations = try await context.pendingOperations()

        #expect(operations.map(\.itemId) == ["a", "n", "b"])
        #expect(operations.map(\.sequence) == operations.map(\.sequence).sorted())
        #expect(Set(operations.map(\.sequence)).count == 3)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func countsAndListsCanBeScopedToOneTable(kind: ContextStoreKind) async throws {
        let context = try await contextWithThreeOperations(kind)

        #expect(try await context.pendingOperationCount() == 3)
        #expect(try await context.pendingOperationCount(table: "ContextTodo") == 2)
        #expect(try await context.pendingOperations(table: "Note").map(\.itemId) == ["n"])
    }

    @Test(arguments: ContextStoreKind.allCases)
    func nextWalksTheQueueAfterASequenceOptionallyByTable(kind: ContextStoreKind) async throws {
        let context = try await contextWithThreeOperations(kind)
        let first = try #require(try await context.queue.next())

        let second = try await context.queue.next(after: first.sequence)
        let nextTodo = try await context.queue.next(after: first.sequence, tables: ["ContextTodo"])

        #expect(first.itemId == "a")
        #expect(second?.itemId == "n")
        #expect(nextTodo?.itemId == "b")
        #expect(try await context.queue.next(after: nextTodo?.sequence ?? 0) == nil)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func markingAttemptedCountsTheAttemptAndKeepsTheVersion(kind: ContextStoreKind) async throws {
        let context = try await contextWithThreeOperations(kind)
        let first = try #require(try await context.queue.next())

        let attempted = try await context.queue.markAttempted(first)

        #expect(attempted.state == .attempted)
        #expect(attempted.attempts == 1)
        #expect(attempted.version == first.version)
        #expect(try await context.pendingOperations().first == attempted)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func removeSucceedsOnlyWhenTheOperationIsUnchanged(kind: ContextStoreKind) async throws {
        let context = try await contextWithThreeOperations(kind)
        let todos = try await context.table(ContextTodo.self)
        let first = try #require(try await context.queue.next())
        try await todos.update(ContextTodo(id: "a", text: "changed while pushing"))

        let removedStale = try await context.queue.remove(first)
        let current = try #require(try await context.queue.next())
        let removedCurrent = try await context.queue.remove(current)

        #expect(removedStale == false)
        #expect(removedCurrent == true)
        #expect(try await context.pendingOperations().map(\.itemId) == ["n", "b"])
    }

    @Test(arguments: ContextStoreKind.allCases)
    func stateChangesOnAStaleOperationAreRefused(kind: ContextStoreKind) async throws {
        let context = try await contextWithThreeOperations(kind)
        let todos = try await context.table(ContextTodo.self)
        let first = try #require(try await context.queue.next())
        try await todos.update(ContextTodo(id: "a", text: "edited"))

        await #expect(throws: SyncError.operationChanged(id: first.id, expected: 1, actual: 2)) {
            _ = try await context.queue.markAttempted(first)
        }
    }

    @Test(arguments: ContextStoreKind.allCases)
    func updatingAnOperationChangesItsKindAndBumpsItsVersion(kind: ContextStoreKind) async throws {
        let context = try await contextWithThreeOperations(kind)
        let first = try #require(try await context.queue.next())

        let updated = try await context.queue.update(first, kind: .update, item: nil)

        #expect(updated.kind == .update)
        #expect(updated.version == 2)
        #expect(updated.sequence == first.sequence)
        #expect(try await context.queue.next() == updated)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func discardingAnOperationKeepsTheRowAndReportsIt(kind: ContextStoreKind) async throws {
        let context = try await contextWithThreeOperations(kind)
        let todos = try await context.table(ContextTodo.self)
        let first = try #require(try await context.queue.next())
        let events = context.events

        let discarded = try await context.discardPendingOperation(id: first.id)

        #expect(discarded == first)
        #expect(try await context.pendingOperations().map(\.itemId) == ["n", "b"])
        #expect(try await todos.lookup(id: "a")?.text == "milk")
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .operationDiscarded(first))
    }

    @Test(arguments: ContextStoreKind.allCases)
    func discardingAnUnknownOperationThrowsNotFound(kind: ContextStoreKind) async throws {
        let context = try await contextWithThreeOperations(kind)

        await #expect(throws: SyncError.operationNotFound(id: "nope")) {
            try await context.discardPendingOperation(id: "nope")
        }
        #expect(try await context.pendingOperationCount() == 3)
    }
}

/// The queue helpers purge and pull run inside their own transactions.
@Suite("Operation queue for purge")
struct OperationQueuePurgeTests {
    @Test(arguments: ContextStoreKind.allCases)
    func removingATablesOperationsKeepsOtherTablesAndClearsErrors(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        let notes = try await context.table(JSONObject.self, named: "Note")
        try await todos.insert(contentsOf: [ContextTodo(id: "a", text: "1"), ContextTodo(id: "b", text: "2")])
        try await notes.insert(["id": "n"])
        let queue = context.queue
        let orphanError = OperationErrorRecord(
            id: "e1", operationId: "gone", operationVersion: 1, kind: .insert, table: "ContextTodo", itemId: "z",
            createdAt: Timestamp(ticks: 0)
        )
        try await context.store.write { try orphanError.save(in: $0) }

        let removed = try await context.store.write { transaction in
            try queue.removeOperations(table: "ContextTodo", in: transaction).map(\.itemId)
        }

        #expect(removed == ["a", "b"])
        #expect(try await context.pendingOperations().map(\.itemId) == ["n"])
        #expect(try await context.store.read(StoreQuery(table: "__errors")).isEmpty)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func removingTheOperationsOfSomeItemsKeepsTheRest(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        try await todos.insert(contentsOf: [ContextTodo(id: "a", text: "1"), ContextTodo(id: "b", text: "2")])
        let queue = context.queue

        let removed = try await context.store.write { transaction in
            try queue.removeOperations(table: "ContextTodo", itemIds: ["b"], in: transaction).map(\.itemId)
        }

        #expect(removed == ["b"])
        #expect(try await context.pendingOperations().map(\.itemId) == ["a"])
    }
}
