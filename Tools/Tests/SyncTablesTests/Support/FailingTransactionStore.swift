import Foundation

@_spi(SyncTablesTools) @testable import SyncTables

/// A store wrapper that makes the Nth `upsert`, `delete` or queue save/remove inside a write transaction throw, to prove a
/// write failing part-way leaves nothing behind. Only for tests named `…WithInjectedFailingStore`.
struct FailingTransactionStore: StoreWrapper {
    struct InjectedFailure: Error, Equatable {}

    let base: any LocalStore
    let counter: Counter

    /// Counts mutating transaction calls across all writes; the call numbered `failingCall` throws.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var calls = 0
        private var failingCall: Int?

        func arm(failingCall: Int) {
            lock.withLock {
                calls = 0
                self.failingCall = failingCall
            }
        }

        func countCall() throws {
            let shouldFail = lock.withLock {
                calls += 1
                return calls == failingCall
            }
            if shouldFail { throw InjectedFailure() }
        }
    }

    init(base: any LocalStore) {
        self.base = base
        self.counter = Counter()
    }

    func write<Result: Sendable>(
        _ body: @Sendable (any StoreTransaction) throws -> Result
    ) async throws -> Result {
        let counter = counter
        return try await base.write { transaction in
            try body(FailingTransaction(base: transaction, counter: counter))
        }
    }
}

private struct FailingTransaction: StoreTransactionFastPaths {
    let base: any StoreTransaction
    let counter: FailingTransactionStore.Counter

    func defineTable(_ definition: TableDefinition) throws { try base.defineTable(definition) }
    func read(_ query: StoreQuery) throws -> [JSONObject] { try base.read(query) }
    func count(_ query: StoreQuery) throws -> Int { try base.count(query) }
    func lookup(table: String, id: String) throws -> JSONObject? { try base.lookup(table: table, id: id) }

    func upsert(table: String, items: [JSONObject]) throws {
        try counter.countCall()
        try base.upsert(table: table, items: items)
    }

    func delete(table: String, ids: [String]) throws -> Int {
        try counter.countCall()
        return try base.delete(table: table, ids: ids)
    }

    func delete(_ query: StoreQuery) throws -> Int {
        try counter.countCall()
        return try base.delete(query)
    }

    // The queue goes to the base store's own storage; its writes count as mutating calls too.
    func prepareOperationQueue() throws { try base.prepareOperationQueue() }
    func queuedOperation(table: String, itemId: String) throws -> PendingOperation? {
        try base.queuedOperation(table: table, itemId: itemId)
    }
    func queuedOperations(_ selection: OperationSelection) throws -> [PendingOperation] {
        try base.queuedOperations(selection)
    }
    func countQueuedOperations(_ selection: OperationSelection) throws -> Int {
        try base.countQueuedOperations(selection)
    }
    func highestQueuedSequence() throws -> Int? { try base.highestQueuedSequence() }

    func saveQueuedOperations(_ operations: [PendingOperation]) throws {
        try counter.countCall()
        try base.saveQueuedOperations(operations)
    }

    func removeQueuedOperations(_ operations: [PendingOperation]) throws {
        try counter.countCall()
        try base.removeQueuedOperations(operations)
    }

    func queueNewOperations(_ operations: [PendingOperation]) throws -> Bool {
        try counter.countCall()
        return try base.queueNewOperations(operations)
    }

    func definedTables() throws -> [TableDefinition]? {
        try base.fastPaths.definedTables()
    }

    // New rows go through the counted upsert above, their operations through the counted queue.
    func insertNew(table: String, items: [JSONObject]) throws -> Bool {
        try GenericStoreTransaction(base: self).insertNew(table: table, items: items)
    }

    func insertNew(table: String, items: [JSONObject], canonicalJSON: [[UInt8]]) throws -> Bool {
        try insertNew(table: table, items: items)
    }

    func insertNew(
        table: String, items: [JSONObject], canonicalJSON: [[UInt8]], queueing operations: [PendingOperation]
    ) throws -> Bool {
        guard try insertNew(table: table, items: items) else { return false }
        guard try queueNewOperations(operations) else {
            _ = try delete(table: table, ids: items.compactMap { $0["id"]?.stringValue })
            return false
        }
        return true
    }
}
