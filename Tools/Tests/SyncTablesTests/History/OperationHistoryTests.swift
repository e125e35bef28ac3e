import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Every outcome of a push, a discard or a resolution leaves one history entry, against a real server.
@Suite("Operation history")
struct OperationHistoryTests {
    /// A device whose context dates history entries by `clock`.
    private static func device(_ harness: SyncHarness, clock: ManualSyncClock, conflictPolicy: ConflictPolicy = .manual)
        async throws -> Device
    {
        let path = harness.directory.newDatabasePath()
        let context = try await SyncContext(
            store: try SQLiteStore(path: path), client: SyncClient(url: harness.url),
            configuration: SyncContext.Configuration(conflictPolicy: conflictPolicy, clock: clock))
        return Device(path: path, context: context, todos: try await context.table(TodoItem.self))
    }

    @Test func aPushRecordsEachOperationPushedOrFailedWithItsErrorAndAttempts() async throws {
        try await SyncHarness.with { harness in
            let clock = ManualSyncClock(start: Date(timeIntervalSince1970: 1_800_000_000))
            let device = try await Self.device(harness, clock: clock)
            try await harness.controls.addFault(
                FaultRule(method: "POST", path: "/tables/TodoItem", occurrence: 2, action: .respond(status: 422)))
            for id in ["a", "b", "c"] { _ = try await device.todos.insert(TodoItem(id: id, text: id)) }

            _ = try? await device.context.push()

            let history = try await device.context.history()
            #expect(history.map(\.itemId) == ["c", "b", "a"])
            #expect(history.map(\.outcome) == [.pushed, .failed, .pushed])
            #expect(history.map(\.sequence) == [3, 2, 1])
            #expect(history.allSatisfy { $0.kind == .insert && $0.table == "TodoItem" && $0.attempts == 1 })
            #expect(history.allSatisfy { $0.recordedAt == clock.now() })
            #expect(history[1].status == 422 && history[0].status == nil && history[0].message == nil)
            let failed = try #require(try await device.context.pendingOperations().first)
            #expect(history[1].operationId == failed.id)
        }
    }

    @Test func aDiscardAndAFailedOperationsLaterSuccessEachAddAnEntryNewestFirst() async throws {
        try await SyncHarness.with { harness in
            let clock = ManualSyncClock(start: Date(timeIntervalSince1970: 1_800_000_000))
            let device = try await Self.device(harness, clock: clock)
            try await harness.controls.addFault(
                FaultRule(method: "POST", path: "/tables/TodoItem", occurrence: 1, action: .respond(status: 503)))
            _ = try await device.todos.insert(TodoItem(id: "a", text: "a"))
            _ = try? await device.context.push()
            clock.advance(by: .seconds(10))
            _ = try await device.todos.insert(TodoItem(id: "b", text: "b"))
            let b = try #require(try await device.context.pendingOperations(table: "TodoItem").last)
            try await device.context.discardPendingOperation(id: b.id)
            clock.advance(by: .seconds(10))

            _ = try await device.context.push()

            let history = try await device.context.history()
            #expect(
                history.map { "\($0.itemId) \($0.outcome) \($0.attempts)" } == [
                    "a pushed 2", "b discarded 0", "a failed 1",
                ])
            #expect(history.map(\.recordedAt.timeIntervalSince1970) == [1_800_000_020, 1_800_000_010, 1_800_000_000])
            #expect(history[2].status == 503)
        }
    }

    @Test func aConflictTheServerWinsPolicySettlesIsRecordedAsFailedThenResolved() async throws {
        try await SyncHarness.with { harness in
            _ = try await harness.controls.seed(
                table: "TodoItem", items: [["id": "a", "text": "server", "complete": false]])
            let device = try await Self.device(harness, clock: ManualSyncClock(), conflictPolicy: .serverWins)
            try await device.todos.pull()
            var item = try #require(try await device.todos.lookup(id: "a"))
            _ = try await harness.controls.seed(
                table: "TodoItem", items: [["id": "a", "text": "changed on server", "complete": false]])
            item.text = "local"
            try await device.todos.update(item)

            _ = try? await device.context.push()

            let history = try await device.context.history(table: "TodoItem")
            #expect(history.map(\.outcome) == [.resolved, .failed])
            #expect(history.last?.status == 412 && history.first?.kind == .update)
            #expect(try await device.todos.lookup(id: "a")?.text == "changed on server")
        }
    }

    @Test func anOperationRefusedForGoodIsRecordedAsDeadLetteredThenItsDiscard() async throws {
        try await SyncHarness.with { harness in
            let device = try await EngineDevice.make(harness)
            try await harness.controls.addFault(
                FaultRule(method: "POST", path: "/tables/TodoItem", occurrence: nil, action: .respond(status: 400)))
            _ = try await device.todos.insert(TodoItem(id: "poison", text: "x"))

            await device.engine.syncNow()
            try await device.context.discardDeadOperations()

            let history = try await device.context.history(table: "TodoItem", limit: 5)
            #expect(history.map(\.outcome) == [.discarded, .deadLettered])
            #expect(history.last?.status == 400 && history.last?.attempts == 1)
            #expect(try await device.context.history(table: "Note").isEmpty)
        }
    }
}
