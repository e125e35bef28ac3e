import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@_spi(SyncTablesTools) @testable import SyncTablesSQLite

@Suite("Wipe")
struct WipeTests {
    @Test func wipeRemovesEveryRowOperationErrorTokenHistoryEntryAndEngineRecord() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            try await WipeFixture.fill(device, harness: harness)
            let before = try await WipeFixture.RawContents.read(device.context.store)
            try #require(before.rows["TodoItem"] == 5 && before.rows[WipeFixture.storeOnlyTable] == 2)
            try #require(before.operations == 3 && before.errors >= 1 && before.retries == 1 && before.history >= 1)
            try #require(try await device.context.deadOperationCount() == 1)
            try #require(before.configKeys.contains(EngineBackoff.id))

            let summary = try await device.context.wipe()

            #expect(summary.tables == [WipeFixture.storeOnlyTable, "TodoItem"])
            #expect(summary.rows == 7 && summary.operations == 3 && summary.deadOperations == 1)
            #expect(summary.errors == before.errors && summary.tokens == 1 && summary.historyEntries == before.history)
            #expect(try await device.todos.query().fetchCount() == 0)
            #expect(try await device.context.pendingOperationCount() == 0)
            #expect(try await device.context.deadOperations().isEmpty)
            #expect(try await device.context.pushErrors().isEmpty)
            #expect(try await device.context.history().isEmpty)
            #expect(try await device.context.engineBackoff() == nil)
            #expect(try await device.context.lastPullTime(table: "TodoItem", queryId: "q") == nil)
            let after = try await WipeFixture.RawContents.read(device.context.store)
            #expect(after.isWiped, "\(after)")
            #expect(after.configKeys.contains(SystemConfig.schemaVersionKey))
            #expect(after.tables == before.tables, "every table stays defined")
        }
    }

    @Test func afterAWipeANewUserPullsInFullAndInsertsAndPushesAtOnce() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            try await WipeFixture.fill(device, harness: harness)
            try await device.context.wipe()
            _ = try await harness.takeRequests()

            try await device.todos.pull(queryId: "q")
            let first = try #require(try await harness.takeRequests().first)
            try await device.todos.insert(TodoItem(id: "new-user", text: "mine"))
            try await device.context.push()

            #expect(first.queryValue("$filter") == "(updatedAt ge datetimeoffset'1970-01-01T00:00:00.000Z')")
            #expect(try await device.todos.lookup(id: "pulled") != nil)
            #expect(try await harness.serverItem("new-user") != nil)
            #expect(try await device.context.pendingOperationCount() == 0)
        }
    }

    @Test(arguments: ContextStoreKind.allCases)
    func wipeEmptiesOpenedAndStoreOnlyTablesOnEveryStore(_ kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(TodoItem.self)
        _ = try await todos.insert(contentsOf: (0..<50).map { TodoItem(id: "t\($0)", text: "x") })
        try await WipeFixture.fillStoreOnlyTable(context.store)
        try await context.store.write { transaction in
            try SystemConfig.setValue(
                "token", for: SystemConfig.deltaTokenKey(table: "TodoItem", queryId: "q"), in: transaction)
        }

        let summary = try await context.wipe()

        #expect(summary.rows == 52 && summary.operations == 50 && summary.tokens == 1)
        #expect(try await WipeFixture.RawContents.read(context.store).isWiped)
        _ = try await todos.insert(TodoItem(id: "t0", text: "again"))
        #expect(try await context.pendingOperationCount() == 1)
        try await context.close()
    }

    @Test func wipeIsRefusedWhileAPushRunsAndWaitsForItWhenAsked() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            try await device.todos.insert(TodoItem(id: "slow", text: "x"))
            try await harness.controls.addFault(
                FaultRule(method: "POST", path: "/tables/TodoItem", occurrence: 1, action: .delay(milliseconds: 500)))
            let push = Task { try await device.context.push(options: PushOptions(batchSize: 1)) }
            try await harness.waitForRequest("POST", "/tables/TodoItem")

            await #expect(throws: SyncError.syncActionInProgress) { try await device.context.wipe() }
            let rowsWhileRefused = try await device.todos.query().fetchCount()
            let summary = try await device.context.wipe(waitingForSync: true)

            #expect(rowsWhileRefused == 1)
            _ = try await push.value
            #expect(summary.rows == 1 && summary.operations == 0, "the push ended before the wipe began")
            #expect(try await device.todos.query().fetchCount() == 0)
        }
    }

    @Test func wipeIsRefusedWhileAnotherPusherHoldsTheStoresLeaseAndWaitsForItWhenAsked() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.newDatabasePath()
        let context = try await SyncContext(store: try SQLiteStore(path: path))
        let todos = try await context.table(TodoItem.self)
        try await todos.insert(TodoItem(id: "a", text: "x"))
        let other = PushLease(owner: "other (pid \(getpid()), abc)", duration: .seconds(60), clock: { Date() })
        let otherStore = try SQLiteStore(path: path)
        try await otherStore.write { try other.take(in: $0) }

        await #expect(throws: SyncError.pushInProgress(owner: other.owner)) { try await context.wipe() }
        let rowsWhileRefused = try await todos.query().fetchCount()
        let release = Task {
            try await Task.sleep(for: .milliseconds(300))
            try await otherStore.write { try other.release(in: $0) }
        }
        let summary = try await context.wipe(waitingForSync: true)

        #expect(rowsWhileRefused == 1)
        try await release.value
        #expect(summary.rows == 1 && summary.operations == 1)
        #expect(try await WipeFixture.RawContents.read(context.store).isWiped)
        try await otherStore.close()
        try await context.close()
    }

    @Test func wipeThatSQLiteAbortsPartWayLeavesEverythingAsItWas() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            try await WipeFixture.fill(device, harness: harness)
            let before = try await WipeFixture.RawContents.read(device.context.store)
            // A real SQLite failure in the wipe's last step, after every other table was emptied.
            let database = try Database(path: device.path)
            try database.execute(
                """
                CREATE TRIGGER refuse_wipe BEFORE DELETE ON "__config" WHEN OLD.id LIKE 'deltaToken|%'
                BEGIN SELECT RAISE(ABORT, 'refused by test trigger'); END
                """)

            await #expect(throws: SyncError.self) { try await device.context.wipe() }

            #expect(try await WipeFixture.RawContents.read(device.context.store) == before)
            #expect(try await device.context.deadOperationCount() == 1)
            try database.execute("DROP TRIGGER refuse_wipe")
            try await device.context.wipe()
            #expect(try await WipeFixture.RawContents.read(device.context.store).isWiped)
        }
    }

    @Test func liveQueriesQueueCountsAndEventsSeeTheEmptyStore() async throws {
        let context = try await SyncContext(store: MemoryStore())
        let todos = try await context.table(TodoItem.self)
        try await todos.insert(TodoItem(id: "a", text: "x"))
        let events = context.events
        var live = todos.query().observe().makeAsyncIterator()
        var counts = context.queueCountUpdates().makeAsyncIterator()
        #expect(try await live.next()?.count == 1)
        #expect(await counts.next() == QueueCounts(pending: 1, dead: 0))

        let summary = try await context.wipe()

        #expect(try await live.next()?.isEmpty == true)
        #expect(await counts.next() == QueueCounts(pending: 0, dead: 0))
        var wiped: WipeSummary?
        for await event in events {
            if case .storeWiped(let summary) = event {
                wiped = summary
                break
            }
        }
        #expect(wiped == summary)
    }
}
