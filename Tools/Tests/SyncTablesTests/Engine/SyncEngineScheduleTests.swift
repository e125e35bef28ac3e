import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("Sync engine: when it syncs by itself")
struct SyncEngineScheduleTests {
    @Test func aHundredLocalWritesWithinASecondAndATwoSecondDebounceCauseExactlyOneCycle() async throws {
        try await SyncHarness.with { harness in
            let device = try await EngineDevice.make(
                harness, todoSchedule: SyncSchedule(triggers: [.afterLocalWrite(debounce: .seconds(2))]),
                noteSchedule: SyncSchedule(triggers: [.intervalOnly]))
            try await device.startAndSettle()
            _ = try await harness.takeRequests()
            let start = device.clock.now()
            let cycles = CycleRecorder(device.engine.cycleReports)

            for index in 0..<100 {
                device.clock.advance(by: .milliseconds(10))
                try await device.todos.insert(TodoItem(id: "t\(index)", text: "burst"))
            }
            // Due 2 s after the last write (at 1 s, when the clock stopped): the engine sleeps until then. Each
            // write is dated when it commits, so only the last one puts the deadline at 3 s.
            try await eventually("the engine waits for the burst to settle") {
                let next = device.clock.nextDeadline?.timeIntervalSince(start) ?? 0
                return abs(next - 3) < 0.001
            }
            let due = try #require(device.clock.nextDeadline)
            device.clock.advance(to: start.addingTimeInterval(2.9))
            #expect(try await harness.takeTableRequests().isEmpty)
            device.clock.advance(to: due)
            try await eventually("the burst is pushed") { try await device.context.pendingOperationCount() == 0 }
            try await eventually("the engine waits again") { device.engine.state == .idle }

            try await eventually("the cycle's report arrives") { await !cycles.reports.isEmpty }
            let reports = await cycles.reports
            #expect(reports.count == 1)
            #expect(reports.first?.pushedOperations == 100)
            #expect(reports.first?.pulls.map(\.table) == ["TodoItem"])  // Note: interval only, and it has none
            let requests = try await harness.takeTableRequests()
            #expect(!requests.contains("GET /tables/Note"))
            #expect(try await harness.serverItem("t0") != nil)
            #expect(try await harness.serverItem("t99") != nil)
            #expect(device.clock.nextDeadline == nil)  // nothing else is due
            await device.engine.stop()
        }
    }

    @Test func anIntervalSyncsItsDefinitionEachTimeItPasses() async throws {
        try await SyncHarness.with { harness in
            let device = try await EngineDevice.make(
                harness, todoSchedule: SyncSchedule(interval: .seconds(60), triggers: [.intervalOnly]),
                noteSchedule: SyncSchedule(triggers: [.intervalOnly]))
            try await device.startAndSettle()
            let start = device.clock.now()
            _ = try await harness.takeRequests()

            for round in 1...3 {
                let due = start.addingTimeInterval(60 * Double(round))
                try await eventually("the engine sleeps until the interval") { device.clock.nextDeadline == due }
                device.clock.advance(to: due.addingTimeInterval(-1))
                #expect(try await harness.takeTableRequests().isEmpty)
                device.clock.advance(to: due)
                try await eventually("round \(round) pulls") {
                    try await harness.takeTableRequests() == ["GET /tables/TodoItem"]
                }
            }
            await device.engine.stop()
        }
    }

    @Test func aDefinitionPulledWithinItsMaxAgeIsNotDueAndIsSkipped() async throws {
        try await SyncHarness.with { harness in
            let device = try await EngineDevice.make(
                harness, todoSchedule: SyncSchedule(maxAge: .seconds(300)),
                noteSchedule: SyncSchedule(maxAge: .seconds(30)))
            #expect(await device.engine.syncNow().pulls.count == 2)

            device.clock.advance(by: .seconds(100))
            let early = await device.engine.performBackgroundSync(deadline: device.clock.now() + 60)
            #expect(early.notDue == ["TodoItem"])
            #expect(early.pulls.map(\.table) == ["Note"])

            device.clock.advance(by: .seconds(200))
            let late = await device.engine.performBackgroundSync(deadline: device.clock.now() + 60)
            #expect(late.notDue.isEmpty)
            #expect(late.pulls.map(\.table) == ["TodoItem", "Note"])

            // An explicit sync pulls everything, whatever the max age.
            #expect(await device.engine.syncNow().pulls.count == 2)
        }
    }

    @Test func triggersSyncOnlyTheDefinitionsThatListThemAndABurstIsOneCycle() async throws {
        try await SyncHarness.with { harness in
            let device = try await EngineDevice.make(
                harness, configuration: SyncEngineConfiguration(minimumCycleInterval: .seconds(10)),
                todoSchedule: SyncSchedule(triggers: [.foreground, .appStart]),
                noteSchedule: SyncSchedule(interval: .seconds(600), triggers: [.intervalOnly, .foreground]))
            try await device.startAndSettle()
            let start = device.clock.now()
            #expect(try await harness.takeTableRequests() == ["GET /tables/TodoItem"])  // app start

            for _ in 0..<5 { await device.engine.enteredForeground() }
            try await eventually("the burst waits for the minimum interval") {
                device.clock.nextDeadline == start.addingTimeInterval(10)
            }
            device.clock.advance(by: .seconds(10))

            // One cycle for the five calls; Note ignores the foreground (interval only).
            try await eventually("the foreground cycle ran and the engine waits for Note's interval") {
                device.clock.nextDeadline == start.addingTimeInterval(600)
            }
            #expect(try await harness.takeTableRequests() == ["GET /tables/TodoItem"])
            await device.engine.stop()
        }
    }

    @Test func theMinimumIntervalHoldsBackACycleThatComesTooSoon() async throws {
        try await SyncHarness.with { harness in
            let device = try await EngineDevice.make(
                harness,
                configuration: SyncEngineConfiguration(minimumCycleInterval: .seconds(30)),
                todoSchedule: SyncSchedule(triggers: [.foreground]))
            try await device.startAndSettle()
            let start = device.clock.now()
            _ = try await harness.takeRequests()

            await device.engine.enteredForeground()

            try await eventually("the cycle waits for the minimum interval") {
                device.clock.nextDeadline == start.addingTimeInterval(30)
            }
            #expect(try await harness.takeTableRequests().isEmpty)
            device.clock.advance(by: .seconds(30))
            try await eventually("then it runs") { try await harness.takeTableRequests() == ["GET /tables/TodoItem"] }
            await device.engine.stop()
        }
    }

    @Test func intervalsWaitInTheBackgroundAndAnOverdueOneRunsOnForeground() async throws {
        try await SyncHarness.with { harness in
            let device = try await EngineDevice.make(
                harness, todoSchedule: SyncSchedule(interval: .seconds(60)),
                noteSchedule: SyncSchedule(triggers: [.intervalOnly]))
            try await device.startAndSettle()
            _ = try await harness.takeRequests()

            await device.engine.enteredBackground()
            try await eventually("no interval runs in the background") { device.clock.nextDeadline == nil }
            device.clock.advance(by: .seconds(600))
            #expect(try await harness.takeTableRequests().isEmpty)

            await device.engine.enteredForeground()
            try await eventually("the overdue interval runs") {
                try await harness.takeTableRequests() == ["GET /tables/TodoItem"]
            }
            await device.engine.stop()
        }
    }

    @Test func aBackgroundSyncReturnsBeforeItsDeadlineEvenWhenTheServerIsSlow() async throws {
        try await SyncHarness.with { harness in
            let device = try await EngineDevice.make(harness)
            try await device.todos.insert(TodoItem(id: "a", text: "one"))
            try await harness.controls.addFault(
                FaultRule(method: "GET", path: "/tables/TodoItem", action: .delay(milliseconds: 5_000)))
            let deadline = device.clock.now().addingTimeInterval(25)

            let engine = device.engine
            let background = Task { await engine.performBackgroundSync(deadline: deadline) }
            try await eventually("the pull is under way") {
                try await harness.controls.requests().contains { $0.method == "GET" && $0.path.hasPrefix("/tables/") }
            }
            device.clock.advance(to: deadline.addingTimeInterval(-1))
            let report = await background.value

            #expect(report.outcome == .cancelled)
            #expect(try await harness.serverItem("a") != nil)  // the push went through before
            #expect(try await device.context.pendingOperationCount() == 0)
        }
    }
}

/// Collects the reports of an engine's cycles.
actor CycleRecorder {
    private(set) var reports: [SyncCycleReport] = []

    init(_ stream: AsyncStream<SyncCycleReport>) {
        Task { await self.consume(stream) }
    }

    private func consume(_ stream: AsyncStream<SyncCycleReport>) async {
        for await report in stream { reports.append(report) }
    }
}
