import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// A context whose store is an actor runs on the store's executor, so its calls into the store stay on
/// one thread; any other store gets an executor of the context's own.
@Suite("Context executor")
struct ContextExecutorTests {
    @Test func aContextOnASQLiteStoreRunsOnTheStoresThread() async throws {
        let context = try await SyncContext(store: try SQLiteStore.inMemory())
        #expect(await context.threadMarker() == "SyncTablesStore")
        try await context.close()
    }

    @Test func aWriteFromTheStoresExecutorNeverLeavesItsThread() async throws {
        let store = try SQLiteStore.inMemory()
        let context = try await SyncContext(store: store)
        let notes = try await context.table(JSONObject.self, named: "Note")
        let markers = try await withTaskExecutorPreference(store.preferredTaskExecutor) {
            var markers: [String?] = []
            for index in 0..<20 {
                try await notes.insert(JSONObject(["id": .string("n\(index)")]))
                markers.append(currentThreadMarker())
            }
            return markers
        }
        #expect(markers.allSatisfy { $0 == "SyncTablesStore" })
        #expect(try await context.pendingOperationCount() == 20)
        try await context.close()
    }

    @Test func aContextOnAStoreThatIsNotAnActorRunsOffTheStoresThread() async throws {
        let context = try await SyncContext(store: ForwardingStore(base: try SQLiteStore.inMemory()))
        #expect(await context.threadMarker() == nil)
        let notes = try await context.table(JSONObject.self, named: "Note")
        try await notes.insert(JSONObject(["id": "a"]))
        #expect(try await notes.lookup(id: "a") != nil)
        try await context.close()
    }
}

/// A store that is a struct, not an actor: it hands every call to a real `SQLiteStore`.
private struct ForwardingStore: StoreWrapper {
    let base: any LocalStore

    func write<Result: Sendable>(_ body: @Sendable (any StoreTransaction) throws -> Result) async throws -> Result {
        try await base.write(body)
    }
}

extension SyncContext {
    /// The executor marker of the thread the context's own code runs on.
    fileprivate func threadMarker() -> String? {
        currentThreadMarker()
    }
}
