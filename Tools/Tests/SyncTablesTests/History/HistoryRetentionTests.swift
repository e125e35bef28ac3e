import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// How much history a context keeps, that entries commit with their outcomes, and that stores from before
/// the history gain it in place.
@Suite("Operation history retention and storage")
struct HistoryRetentionTests {
    /// Queues inserts of `ids` and discards each at once (one history entry per id), advancing `clock` by
    /// `step` after each.
    private static func discardInserts(
        _ ids: [String], in context: SyncContext, clock: ManualSyncClock? = nil, step: Duration = .zero
    ) async throws {
        let todos = try await context.table(ContextTodo.self)
        for id in ids {
            _ = try await todos.insert(ContextTodo(id: id, text: id))
            let operation = try #require(try await context.pendingOperations().first { $0.itemId == id })
            try await context.discardPendingOperation(id: operation.id)
            clock?.advance(by: step)
        }
    }

    @Test(arguments: ContextStoreKind.allCases)
    func theHistoryStartsEmptyAndKeeps1000EntriesByDefault(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()

        #expect(try await context.history().isEmpty)
        #expect(context.historyRetention == OperationHistoryRetention(maxEntries: 1_000, maxAge: nil))
    }

    @Test(arguments: ContextStoreKind.allCases)
    func aCountLimitKeepsTheNewestEntriesNumberedOnAfterThePrunedOnes(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext(
            configuration: SyncContext.Configuration(historyRetention: OperationHistoryRetention(maxEntries: 3)))

        try await Self.discardInserts(["a", "b", "c", "d", "e"], in: context)

        let history = try await context.history()
        #expect(history.map(\.itemId) == ["e", "d", "c"])
        #expect(history.map(\.sequence) == [5, 4, 3])
        #expect(history.allSatisfy { $0.outcome == .discarded && $0.kind == .insert && $0.attempts == 0 })
        #expect(try await context.history(limit: 2).map(\.itemId) == ["e", "d"])
        #expect(try await context.store.count(StoreQuery(table: "__history")) == 3)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func anAgeLimitDropsEntriesOlderThanItByTheContextsClock(kind: ContextStoreKind) async throws {
        let clock = ManualSyncClock(start: Date(timeIntervalSince1970: 1_800_000_000))
        let context = try await SyncContext(
            store: try kind.makeStore(),
            configuration: SyncContext.Configuration(
                historyRetention: OperationHistoryRetention(maxEntries: nil, maxAge: .seconds(60)), clock: clock))

        // Entries at 0 s, 30 s and 70 s: when the third is written, the first is more than 60 s old.
        try await Self.discardInserts(["a", "b"], in: context, clock: clock, step: .seconds(30))
        clock.advance(by: .seconds(10))
        try await Self.discardInserts(["c"], in: context)

        let history = try await context.history()
        #expect(history.map(\.itemId) == ["c", "b"])
        #expect(history.map(\.recordedAt.timeIntervalSince1970) == [1_800_000_070, 1_800_000_030])
    }

    @Test(arguments: ContextStoreKind.allCases)
    func aRetentionOfZeroEntriesRecordsNothing(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext(
            configuration: SyncContext.Configuration(historyRetention: OperationHistoryRetention(maxEntries: 0)))

        try await Self.discardInserts(["a"], in: context)

        #expect(try await context.history().isEmpty)
        #expect(try await context.pendingOperationCount() == 0)
    }

    @Test func historyFiltersByTableAndRefusesANegativeLimit() async throws {
        let context = try await ContextStoreKind.memory.makeContext()
        try await Self.discardInserts(["a"], in: context)

        #expect(try await context.history(table: "ContextTodo").count == 1)
        #expect(try await context.history(table: "Other").isEmpty)
        await #expect(throws: SyncError.self) { try await context.history(limit: -1) }
    }

    @Test(arguments: [1, 2, 3])
    func anOutcomeAndItsEntryCommitTogetherOrNeitherWithInjectedFailingStore(failingCall: Int) async throws {
        let store = FailingTransactionStore(base: MemoryStore())
        let context = try await SyncContext(store: store)
        _ = try await context.table(ContextTodo.self).insert(ContextTodo(id: "a", text: "a"))
        let operation = try #require(try await context.pendingOperations().first)
        // The discard's mutating calls: the history counter, the history row, then the queue removal.
        store.counter.arm(failingCall: failingCall)

        await #expect(throws: (any Error).self) { try await context.discardPendingOperation(id: operation.id) }

        #expect(try await context.pendingOperations() == [operation])
        #expect(try await context.history().isEmpty)
        #expect(try await store.lookup(table: "__config", id: "historySequence") == nil)
    }

    @Test func aStoreWrittenBeforeTheHistoryGainsItInPlaceKeepingItsQueue() async throws {
        let path = ContextTemporaryFile.make().path
        let queued = PendingOperation(
            id: "op-1", sequence: 1, kind: .insert, table: "ContextTodo", itemId: "a", item: nil, state: .pending,
            version: 1, createdAt: Timestamp(date: Date()), attempts: 0)
        let old = try SQLiteStore(path: path)
        try await old.defineTable(TableDefinition(name: "ContextTodo"))
        try await old.write { transaction in
            // What SyncTables wrote at schema version 2: its migrations only, and its stamp.
            try transaction.defineTable(SystemTables.configDefinition)
            for migration in SystemSchema.migrations where migration.version <= 2 { try migration.apply(transaction) }
            try SystemConfig.setValue("2", for: SystemConfig.schemaVersionKey, in: transaction)
            try transaction.upsert(table: "ContextTodo", items: [["id": "a", "text": "a", "complete": false]])
            try transaction.saveQueuedOperations([queued])
        }
        #expect(try await !old.tableDefinitions().map(\.name).contains("__history"))
        try await old.close()

        let context = try await SyncContext(store: try SQLiteStore(path: path))
        try await context.discardPendingOperation(id: "op-1")

        #expect(
            try await context.store.lookup(table: "__config", id: "schemaVersion")?["value"]
                == .string(String(SystemSchema.currentVersion)))
        #expect(try await context.history().map(\.operationId) == ["op-1"])
        #expect(try await context.table(ContextTodo.self).lookup(id: "a")?.text == "a")
    }
}
