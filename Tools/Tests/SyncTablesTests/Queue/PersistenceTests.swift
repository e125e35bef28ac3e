import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// The queue and its numbering survive closing and reopening a file-backed context.
@Suite("Persistence")
struct PersistenceTests {
    @Test func pendingOperationsComeBackInOrderWithTheSameContents() async throws {
        let path = ContextTemporaryFile.make().path
        let first = try await SyncContext(store: try SQLiteStore(path: path))
        let todos = try await first.table(ContextTodo.self)
        try await first.storePulled([["id": "b", "text": "rye"]])
        try await todos.insert(ContextTodo(id: "a", text: "milk"))
        try await todos.update(ContextTodo(id: "b", text: "bread"))
        try await todos.insert(ContextTodo(id: "c", text: "eggs"))
        try await todos.delete(id: "b")
        try await todos.update(ContextTodo(id: "a", text: "oat milk"))
        let before = try await first.pendingOperations()
        try await first.close()

        let reopened = try await SyncContext(store: try SQLiteStore(path: path))

        #expect(try await reopened.pendingOperations() == before)
        #expect(before.map(\.kind) == [.insert, .delete, .insert])
        #expect(try await reopened.table(ContextTodo.self).lookup(id: "a")?.text == "oat milk")
    }

    @Test func sequenceNumbersKeepIncreasingAfterReopen() async throws {
        let path = ContextTemporaryFile.make().path
        let first = try await SyncContext(store: try SQLiteStore(path: path))
        try await first.table(ContextTodo.self).insert(contentsOf: [
            ContextTodo(id: "a", text: "1"), ContextTodo(id: "b", text: "2"),
        ])
        let highest = try #require(try await first.pendingOperations().last?.sequence)
        try await first.close()

        let reopened = try await SyncContext(store: try SQLiteStore(path: path))
        try await reopened.table(ContextTodo.self).insert(ContextTodo(id: "c", text: "3"))

        let sequences = try await reopened.pendingOperations().map(\.sequence)
        #expect(sequences.count == 3)
        #expect(sequences[2] > highest)
    }

    @Test func sequenceNumbersKeepIncreasingAfterTheQueueEmptied() async throws {
        let path = ContextTemporaryFile.make().path
        let first = try await SyncContext(store: try SQLiteStore(path: path))
        try await first.table(ContextTodo.self).insert(contentsOf: [
            ContextTodo(id: "a", text: "1"), ContextTodo(id: "b", text: "2"),
        ])
        let operations = try await first.pendingOperations()
        for operation in operations { try await first.discardPendingOperation(id: operation.id) }
        try await first.close()

        let reopened = try await SyncContext(store: try SQLiteStore(path: path))
        try await reopened.table(ContextTodo.self).insert(ContextTodo(id: "c", text: "3"))

        let sequence = try #require(try await reopened.pendingOperations().first?.sequence)
        #expect(sequence > (operations.map(\.sequence).max() ?? .max))
    }

    @Test(arguments: ContextStoreKind.allCases)
    func openingStampsTheSystemSchemaVersion(kind: ContextStoreKind) async throws {
        let store = try kind.makeStore()

        _ = try await SyncContext(store: store)

        let stamp = try await store.lookup(table: "__config", id: "schemaVersion")
        #expect(stamp?["value"] == .string(String(SystemSchema.currentVersion)))
        let names = Set(try await store.tableDefinitions().map(\.name))
        #expect(names.isSuperset(of: ["__errors", "__config", "__retries", "__history"]))
        // SQLiteStore keeps the queue in its own relational table; other stores in `__operations` rows.
        #expect(names.contains("__operations") == (kind == .memory))
    }

    @Test(arguments: ContextStoreKind.allCases)
    func aStoreFromANewerVersionIsRefused(kind: ContextStoreKind) async throws {
        let store = try kind.makeStore()
        _ = try await SyncContext(store: store)
        try await store.write { try SystemConfig.setValue("99", for: "schemaVersion", in: $0) }

        await #expect(throws: SyncError.unsupportedSchemaVersion(found: 99, supported: SystemSchema.currentVersion)) {
            _ = try await SyncContext(store: store)
        }
    }

    @Test(arguments: ContextStoreKind.allCases)
    func reopeningOnTheSameStoreKeepsTheQueue(kind: ContextStoreKind) async throws {
        let store = try kind.makeStore()
        let first = try await SyncContext(store: store)
        try await first.table(ContextTodo.self).insert(ContextTodo(id: "a", text: "1"))

        let second = try await SyncContext(store: store)

        #expect(try await second.pendingOperations() == first.pendingOperations())
    }
}
