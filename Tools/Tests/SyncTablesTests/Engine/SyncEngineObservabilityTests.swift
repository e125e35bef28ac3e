import Foundation
import Logging
import MetricsTestKit
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("Sync engine: state, status, logs and metrics")
struct SyncEngineObservabilityTests {
    @Test func routineCyclesLogAtDebugAndOnlyWhatMattersAtInfo() async throws {
        try await SyncHarness.with { harness in
            let log = CapturedLog()
            let context = try await SyncContext(
                store: try SQLiteStore(path: harness.directory.newDatabasePath()), client: SyncClient(url: harness.url))
            let todos = try await context.table(TodoItem.self)
            let engine = SyncEngine(
                context: context, definitions: [SyncDefinition(todos, queryId: "all")], clock: ManualSyncClock(),
                random: { 0.5 }, logger: log.logger())
            try await todos.insert(TodoItem(id: "a", text: "one"))
            await engine.syncNow()
            await engine.syncNow()
            #expect(log.lines.filter { $0.level >= .info }.isEmpty, "\(log.lines.map(\.message))")

            try await harness.controls.addFault(
                FaultRule(method: "GET", path: "/tables/TodoItem", action: .respond(status: 503)))
            await engine.syncNow()
            let info = log.lines.filter { $0.level >= .info }.map(\.message)
            #expect(info.contains { $0.hasPrefix("sync engine state: backoff until") }, "\(info)")
            #expect(info.contains("sync cycle failed"), "\(info)")

            // An engine that never ran has nothing to say when it is stopped.
            let quietLog = CapturedLog()
            let idle = SyncEngine(
                context: context, definitions: [SyncDefinition(todos, queryId: "all")], logger: quietLog.logger())
            await idle.stop()
            #expect(idle.state == .stopped)
            #expect(quietLog.lines.filter { $0.level >= .info }.isEmpty, "\(quietLog.lines.map(\.message))")
            try await context.close()
        }
    }

    @Test func aCycleLogsEachOperationAndCountsItInMetrics() async throws {
        try await SyncHarness.with { harness in
            let log = CapturedLog()
            let metrics = TestMetrics()
            // One clock dates the operations and drives the engine, so the oldest operation's age is exact.
            let clock = ManualSyncClock(start: Date(timeIntervalSince1970: 1_800_000_000))
            let context = try await SyncContext(
                store: try SQLiteStore(path: harness.directory.newDatabasePath()), client: SyncClient(url: harness.url),
                configuration: SyncContext.Configuration(clock: clock))
            let todos = try await context.table(TodoItem.self)
            try await todos.insert(TodoItem(id: "good", text: "one"))
            try await todos.insert(TodoItem(id: "bad", text: "two"))
            let engine = SyncEngine(
                context: context, definitions: [SyncDefinition(todos, queryId: "all")],
                configuration: SyncEngineConfiguration(retry: RetryPolicy(maxAttempts: 2)), random: { 0.5 },
                logger: log.logger(), metricsFactory: metrics)
            try await harness.controls.addFault(
                FaultRule(method: "POST", path: "/tables/TodoItem", occurrence: 2, action: .respond(status: 400)))
            _ = try await harness.controls.seed(
                table: "TodoItem", items: (0..<3).map { ["id": .string("s\($0)"), "text": "x", "complete": false] })

            await engine.syncNow()

            let pushedOperationId = try #require(try await context.pendingOperations().first?.id)  // the dead one
            let lines = log.lines
            #expect(lines.contains { $0.message == "operation pushed" && $0.level == .debug })
            let dead = try #require(lines.first { $0.message.hasPrefix("operation dead-lettered") })
            #expect(dead.level == .warning && dead.metadata["operation"] == pushedOperationId)
            #expect(dead.metadata["status"] == "400")
            // Routine moves between idle and syncing are debug lines; see the test below for info.
            #expect(lines.contains { $0.message == "sync engine state: syncing (pushing)" && $0.level == .debug })
            #expect(lines.contains { $0.message == "sync engine state: idle" })
            // Pages are logged from the context's events, which arrive on their own task.
            let deadline = ContinuousClock.now + .seconds(10)
            while !log.lines.contains(where: { $0.message == "page pulled" }), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            let page = try #require(log.lines.first { $0.message == "page pulled" })
            #expect(page.level == .debug && page.metadata["table"] == "TodoItem" && page.metadata["queryId"] == "all")

            #expect(try metrics.expectCounter("synctables_operations_pushed_total").totalValue == 1)
            #expect(try metrics.expectCounter("synctables_operations_failed_total").totalValue == 1)
            #expect(try metrics.expectCounter("synctables_operations_dead_lettered_total").totalValue == 1)
            let pulled = try metrics.expectCounter("synctables_rows_pulled_total").totalValue
            // s0, s1, s2 and the pushed 'good': distinct records (the boundary record read again is not counted).
            #expect(pulled == 4)
            #expect(try metrics.expectGauge("synctables_pending_operations").lastValue == 1)
            #expect(try metrics.expectGauge("synctables_dead_operations").lastValue == 1)
            #expect(try metrics.expectTimer("synctables_cycle_duration").values.count == 1)
            #expect(try metrics.expectTimer("synctables_push_duration").values.count == 1)
            #expect(try metrics.expectTimer("synctables_pull_duration").values.count == 1)

            let status = engine.status
            #expect(status.pendingOperations == 1 && status.deadOperations == 1)
            #expect(status.lastSuccessfulPush == clock.now() && status.lastSuccessfulPull == clock.now())
            clock.advance(by: .seconds(90))
            await engine.syncNow()
            let age = try #require(try metrics.expectGauge("synctables_oldest_pending_operation_age_seconds").lastValue)
            #expect(age == 90)
        }
    }

    @Test func theStateStreamShowsSyncingThenBackoffThenIdleAndStopped() async throws {
        try await SyncHarness.with { harness in
            let device = try await EngineDevice.make(harness)
            let recorder = StateRecorder(device.engine.states)
            // The batch's connection is dropped, and libcurl's one resend of it too.
            try await harness.dropConnection(method: "POST", path: "/tables/TodoItem", occurrence: 1)
            try await device.todos.insert(TodoItem(id: "a", text: "one"))

            await device.engine.syncNow()
            device.clock.advance(by: .seconds(60))
            await device.engine.syncNow()
            await device.engine.stop()

            let states = await recorder.until { $0 == .stopped }
            let backoff = device.clock.now().addingTimeInterval(-60 + 5)  // base 10 s × jitter 0.5
            #expect(
                states == [
                    .idle, .syncing(.pushing), .backoff(until: backoff), .syncing(.pushing),
                    .syncing(.pulling(table: "TodoItem")), .syncing(.pulling(table: "Note")), .idle, .stopped,
                ])
        }
    }

    @Test func theStatusFollowsLocalWritesWhileTheEngineRuns() async throws {
        try await SyncHarness.with { harness in
            let device = try await EngineDevice.make(harness)
            await device.engine.start()
            try await device.waitForState { $0 == .idle }
            try await device.todos.insert(TodoItem(id: "a", text: "one"))

            try await eventually("the status counts the write") { device.engine.status.pendingOperations == 1 }
            #expect(device.engine.status.oldestPendingOperationDate != nil)
            await device.engine.stop()
        }
    }
}

/// Collects a state stream.
actor StateRecorder {
    private var states: [SyncEngineState] = []

    init(_ stream: AsyncStream<SyncEngineState>) {
        Task { await self.consume(stream) }
    }

    private func consume(_ stream: AsyncStream<SyncEngineState>) async {
        for await state in stream { states.append(state) }
    }

    /// The states seen until one satisfies `condition` (that one included), or all seen within 20 s.
    func until(_ condition: @escaping @Sendable (SyncEngineState) -> Bool) async -> [SyncEngineState] {
        let deadline = ContinuousClock.now + .seconds(20)
        while !states.contains(where: condition), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return states
    }
}
