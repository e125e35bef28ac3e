import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Every cell of the collapse matrix, on every store.
@Suite("Collapse matrix")
struct CollapseMatrixTests {
    // MARK: No operation queued

    @Test(arguments: ContextStoreKind.allCases)
    func insertOfANewItemQueuesAnInsert(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)

        try await todos.insert(ContextTodo(id: "a", text: "milk"))

        let operations = try await context.pendingOperations()
        #expect(operations.map(\.kind) == [.insert])
        #expect(operations.first?.itemId == "a")
        #expect(operations.first?.table == "ContextTodo")
        #expect(operations.first?.state == .pending)
        #expect(operations.first?.version == 1)
        #expect(operations.first?.item == nil)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func updateOfAPulledItemWithoutOperationQueuesAnUpdateAndChangesTheRow(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        try await context.storePulled([["id": "a", "text": "tea"]])

        try await todos.update(ContextTodo(id: "a", text: "milk"))

        #expect(try await context.pendingOperations().map(\.kind) == [.update])
        #expect(try await todos.lookup(id: "a")?.text == "milk")
    }

    @Test(arguments: ContextStoreKind.allCases)
    func deleteOfAPulledItemQueuesADeleteCarryingTheStoredRow(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        let pulled: JSONObject = ["id": "a", "text": "milk", "complete": false, "version": "v7"]
        try await context.store.write { try $0.upsert(table: "ContextTodo", items: [pulled]) }

        try await todos.delete(id: "a")

        let operations = try await context.pendingOperations()
        #expect(operations.map(\.kind) == [.delete])
        #expect(operations.first?.item == pulled)
        #expect(try await todos.lookup(id: "a") == nil)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func deleteOfAnAbsentItemStillQueuesADelete(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)

        try await todos.delete(id: "ghost")

        let operations = try await context.pendingOperations()
        #expect(operations.map(\.kind) == [.delete])
        #expect(operations.first?.item == ["id": "ghost"])
    }

    // MARK: Insert queued

    @Test(arguments: ContextStoreKind.allCases)
    func insertAfterInsertIsRejectedAndChangesNothing(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        try await todos.insert(ContextTodo(id: "a", text: "milk"))
        let before = try await ContextSnapshot.take(context)

        await #expect(
            throws: SyncError.pendingOperationConflict(
                table: "ContextTodo", id: "a", existing: .insert, attempted: .insert)
        ) {
            try await todos.insert(ContextTodo(id: "a", text: "bread"))
        }

        #expect(try await ContextSnapshot.take(context) == before)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func updateAfterInsertKeepsTheInsertWithTheNewDataAndABumpedVersion(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        try await todos.insert(ContextTodo(id: "a", text: "milk"))
        let queued = try #require(try await context.pendingOperations().first)

        try await todos.update(ContextTodo(id: "a", text: "oat milk"))

        let operations = try await context.pendingOperations()
        #expect(operations.count == 1)
        #expect(operations.first?.id == queued.id)
        #expect(operations.first?.kind == .insert)
        #expect(operations.first?.sequence == queued.sequence)
        #expect(operations.first?.version == 2)
        #expect(try await todos.lookup(id: "a")?.text == "oat milk")
    }

    @Test(arguments: ContextStoreKind.allCases)
    func deleteAfterUnsentInsertRemovesBothRowAndOperation(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        try await todos.insert(ContextTodo(id: "a", text: "milk"))

        try await todos.delete(id: "a")

        #expect(try await context.pendingOperationCount() == 0)
        #expect(try await todos.lookup(id: "a") == nil)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func deleteAfterAttemptedInsertReplacesItWithADeleteInPlace(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        try await todos.insert(ContextTodo(id: "a", text: "milk"))
        try await todos.insert(ContextTodo(id: "b", text: "bread"))
        let insert = try #require(try await context.pendingOperations().first)
        _ = try await context.queue.markAttempted(insert)

        try await todos.delete(id: "a")

        let operations = try await context.pendingOperations()
        #expect(operations.map(\.itemId) == ["a", "b"])
        let delete = try #require(operations.first)
        #expect(delete.kind == .delete)
        #expect(delete.id == insert.id)
        #expect(delete.sequence == insert.sequence)
        #expect(delete.version == insert.version + 1)
        #expect(delete.state == .pending)
        #expect(delete.item?["text"] == .string("milk"))
        #expect(try await todos.lookup(id: "a") == nil)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func deleteAfterFailedInsertReplacesItWithADelete(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        try await todos.insert(ContextTodo(id: "a", text: "milk"))
        let insert = try #require(try await context.pendingOperations().first)
        let attempted = try await context.queue.markAttempted(insert)
        _ = try await context.queue.markFailed(attempted)

        try await todos.delete(id: "a")

        let operations = try await context.pendingOperations()
        #expect(operations.map(\.kind) == [.delete])
        #expect(operations.first?.id == insert.id)
    }

    // MARK: Update queued

    @Test(arguments: ContextStoreKind.allCases)
    func insertAfterUpdateIsRejectedAndChangesNothing(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        try await context.storePulled([["id": "a", "text": "tea"]])
        try await todos.update(ContextTodo(id: "a", text: "milk"))
        let before = try await ContextSnapshot.take(context)

        await #expect(
            throws: SyncError.pendingOperationConflict(
                table: "ContextTodo", id: "a", existing: .update, attempted: .insert)
        ) {
            try await todos.insert(ContextTodo(id: "a", text: "bread"))
        }

        #expect(try await ContextSnapshot.take(context) == before)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func updateAfterUpdateKeepsTheUpdateWithABumpedVersion(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        try await context.storePulled([["id": "a", "text": "tea"]])
        try await todos.update(ContextTodo(id: "a", text: "milk"))
        let queued = try #require(try await context.pendingOperations().first)

        try await todos.update(ContextTodo(id: "a", text: "oat milk"))

        let operations = try await context.pendingOperations()
        #expect(operations.map(\.kind) == [.update])
        #expect(operations.first?.id == queued.id)
        #expect(operations.first?.version == 2)
        #expect(try await todos.lookup(id: "a")?.text == "oat milk")
    }

    @Test(arguments: ContextStoreKind.allCases)
    func deleteAfterUpdateConvertsItInPlaceKeepingItsQueuePosition(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        try await context.storePulled([["id": "a", "text": "tea"]])
        try await todos.update(ContextTodo(id: "a", text: "milk", version: "v1"))
        try await todos.insert(ContextTodo(id: "b", text: "bread"))
        let update = try #require(try await context.pendingOperations().first)

        try await todos.delete(id: "a")

        let operations = try await context.pendingOperations()
        #expect(operations.map(\.itemId) == ["a", "b"])
        let delete = try #require(operations.first)
        #expect(delete.kind == .delete)
        #expect(delete.id == update.id)
        #expect(delete.sequence == update.sequence)
        #expect(delete.version == 2)
        #expect(delete.item?["version"] == .string("v1"))
        #expect(try await todos.lookup(id: "a") == nil)
    }

    // MARK: Delete queued

    @Test(arguments: ContextStoreKind.allCases, [OperationKind.update, .delete])
    func anUpdateOrDeleteAfterDeleteIsRejectedAndChangesNothing(kind: ContextStoreKind, attempted: OperationKind)
        async throws
    {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        let pulled: JSONObject = ["id": "a", "text": "milk", "complete": false]
        try await context.store.write { try $0.upsert(table: "ContextTodo", items: [pulled]) }
        try await todos.delete(id: "a")
        let before = try await ContextSnapshot.take(context)

        await #expect(
            throws: SyncError.pendingOperationConflict(
                table: "ContextTodo", id: "a", existing: .delete, attempted: attempted)
        ) {
            if attempted == .update {
                try await todos.update(ContextTodo(id: "a", text: "again"))
            } else {
                try await todos.delete(id: "a")
            }
        }

        #expect(try await ContextSnapshot.take(context) == before)
    }

    /// The offline "undo": an item deleted and inserted again before the delete was sent is still on the
    /// server, so the delete becomes an update of the server's copy (the delete's ancestor), in its place.
    @Test(arguments: ContextStoreKind.allCases)
    func anInsertAfterAnUnsentDeleteBecomesAnUpdateOfTheServersCopy(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        let pulled: JSONObject = ["id": "a", "text": "milk", "complete": false, "version": "v1"]
        try await context.store.write { try $0.upsert(table: "ContextTodo", items: [pulled]) }
        try await todos.insert(ContextTodo(id: "first", text: "queued before"))
        try await todos.delete(id: "a")
        let deleted = try #require(try await context.pendingOperations().last)

        try await todos.insert(ContextTodo(id: "a", text: "again"))

        let queued = try await context.pendingOperations()
        #expect(queued.map(\.itemId) == ["first", "a"])
        let undone = try #require(queued.last)
        #expect(undone.id == deleted.id && undone.sequence == deleted.sequence)
        #expect(undone.kind == .update && undone.item == nil && undone.version == deleted.version + 1)
        #expect(undone.ancestor == pulled)
        #expect(try await todos.lookup(id: "a")?.text == "again")
        #expect(try await todos.lookup(id: "a")?.version == "v1")
    }

    /// Once the delete was sent it may have reached the server, so the item is inserted again; the insert
    /// keeps the delete's ancestor, which marks it as recreating the item.
    @Test(arguments: ContextStoreKind.allCases)
    func anInsertAfterASentDeleteBecomesARecreatingInsert(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        let pulled: JSONObject = ["id": "a", "text": "milk", "complete": false, "version": "v1"]
        try await context.store.write { try $0.upsert(table: "ContextTodo", items: [pulled]) }
        try await todos.delete(id: "a")
        let deleted = try #require(try await context.pendingOperations().first)
        _ = try await context.queue.markAttempted(deleted)

        try await todos.insert(ContextTodo(id: "a", text: "again"))

        let undone = try #require(try await context.pendingOperations().first)
        #expect(undone.id == deleted.id && undone.kind == .insert && undone.state == .pending)
        #expect(undone.ancestor == pulled)
        #expect(try await todos.lookup(id: "a")?.text == "again")
    }

    // MARK: Rows without operations

    @Test(arguments: ContextStoreKind.allCases)
    func insertOfAnIdThatCameFromAPullIsRejected(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        let pulled: JSONObject = ["id": "a", "text": "milk", "complete": false, "version": "v1"]
        try await context.store.write { try $0.upsert(table: "ContextTodo", items: [pulled]) }
        let before = try await ContextSnapshot.take(context)

        await #expect(throws: SyncError.duplicateInsert(table: "ContextTodo", id: "a")) {
            try await todos.insert(ContextTodo(id: "a", text: "bread"))
        }

        #expect(try await ContextSnapshot.take(context) == before)
    }

    // MARK: Stored errors

    @Test(arguments: ContextStoreKind.allCases, [OperationKind.update, .delete])
    func collapsingOntoAnOperationRemovesItsStoredError(kind: ContextStoreKind, next: OperationKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        try await todos.insert(ContextTodo(id: "a", text: "milk"))
        try await todos.insert(ContextTodo(id: "b", text: "bread"))
        let operations = try await context.pendingOperations()
        try await recordError(for: operations[0], in: context)
        try await recordError(for: operations[1], in: context)

        switch next {
        case .update: try await todos.update(ContextTodo(id: "a", text: "oat milk"))
        default: try await todos.delete(id: "a")
        }

        let errors = try await context.store.read(StoreQuery(table: "__errors"))
        #expect(errors.map { $0["itemId"] } == [.string("b")])
    }

    @Test(arguments: ContextStoreKind.allCases)
    func convertingAnAttemptedInsertToADeleteRemovesItsStoredError(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        try await todos.insert(ContextTodo(id: "a", text: "milk"))
        let insert = try #require(try await context.pendingOperations().first)
        let failed = try await context.queue.markFailed(try await context.queue.markAttempted(insert))
        try await recordError(for: failed, in: context)

        try await todos.delete(id: "a")

        #expect(try await context.store.read(StoreQuery(table: "__errors")).isEmpty)
        #expect(try await context.pendingOperations().map(\.kind) == [.delete])
    }

    private func recordError(for operation: PendingOperation, in context: SyncContext) async throws {
        let record = OperationErrorRecord(
            id: UUID().uuidString,
            operationId: operation.id,
            operationVersion: operation.version,
            kind: operation.kind,
            table: operation.table,
            itemId: operation.itemId,
            status: 500,
            rawBody: "boom",
            createdAt: Timestamp(ticks: 0)
        )
        try await context.store.write { try record.save(in: $0) }
    }
}
