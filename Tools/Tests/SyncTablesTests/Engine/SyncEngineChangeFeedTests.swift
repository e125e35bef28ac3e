import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// The engine follows the server's change feed: a change another device pushes is pulled within a moment,
/// without any interval; a dropped feed, a server restart and the writes made meanwhile are caught up with
/// incremental pulls; the feed closes and opens with the engine's lifecycle.
@Suite("Sync engine: live changes from the server")
struct SyncEngineChangeFeedTests {
    /// Only the feed syncs these definitions: no interval, no other trigger.
    static let live = SyncSchedule(triggers: [.serverChange])
    static let configuration = SyncEngineConfiguration(
        retry: RetryPolicy(baseDelay: .seconds(10), maximumDelay: .seconds(600), maxAttempts: 3),
        breakerThreshold: 3, breakerCooldown: .seconds(120), serverChangeDebounce: .zero)

    @Test(.timeLimit(.minutes(5)))
    func aChangePushedByAnotherDeviceIsPulledWithoutAnyIntervalOnTheRealClockFromASlowServer() async throws {
        try await SyncHarness.with { harness in
            let writer = try await harness.device()
            let reader = try await harness.device()
            let engine = SyncEngine(
                context: reader.context,
                definitions: [SyncDefinition(reader.todos, queryId: "todos", schedule: Self.live)],
                clock: SystemSyncClock(), logger: EngineDevice.quietLogger)
            let cycles = CycleRecorder(engine.cycleReports)
            // Every pull answers 300 ms late.
            try await harness.controls.addFault(
                FaultRule(method: "GET", path: "/tables/TodoItem", occurrence: nil, action: .delay(milliseconds: 300)))
            await engine.start()
            try await eventually("the feed is live") { engine.status.changeFeed == .live }
            try await eventually("the first connection's catch-up ends") { await cycles.reports.count == 1 }

            for index in 0..<3 {
                try await writer.todos.insert(TodoItem(id: "a\(index)", text: "from the writer"))
                try await writer.context.push()
                try await eventually("a\(index) reaches the reader") {
                    try await reader.todos.lookup(id: "a\(index)") != nil
                }
            }

            let reports = await cycles.reports
            #expect(reports.allSatisfy { $0.reason == "scheduled" && $0.outcome == .completed })
            #expect(reports.count <= 4, "one cycle per change at most: \(reports.count)")
            await engine.stop()
            #expect(engine.status.changeFeed == .off)
        }
    }

    @Test func theFeedClosesInTheBackgroundAndOnStopAndOpensAgainInTheForeground() async throws {
        try await SyncHarness.with { harness in
            let device = try await EngineDevice.make(
                harness, configuration: Self.configuration, todoSchedule: Self.live,
                noteSchedule: SyncSchedule(triggers: [.intervalOnly]))
            await device.engine.start()
            try await eventually("live") { device.engine.status.changeFeed == .live }

            await device.engine.enteredBackground()
            #expect(device.engine.status.changeFeed == .off)
            await device.engine.enteredForeground()
            try await eventually("live again") { device.engine.status.changeFeed == .live }

            await device.engine.stop()
            #expect(device.engine.status.changeFeed == .off)
        }
    }

    @Test func anEngineWithoutALiveDefinitionOpensNoFeed() async throws {
        try await SyncHarness.with { harness in
            let device = try await EngineDevice.make(harness, configuration: Self.configuration)
            try await device.startAndSettle()

            let feeds = try await harness.takeRequests(includingExtensions: true).filter { $0.path == "/sync/changes" }
            #expect(feeds.isEmpty)
            #expect(device.engine.status.changeFeed == .off)
            await device.engine.stop()
        }
    }

    @Test func aDroppedFeedReconnectsFromItsPositionAndPullsWhatChangedMeanwhileIncrementally() async throws {
        try await SyncHarness.with { harness in
            let writer = try await harness.device()
            let device = try await EngineDevice.make(
                harness, configuration: Self.configuration, todoSchedule: Self.live,
                noteSchedule: SyncSchedule(triggers: [.intervalOnly]))
            let cycles = CycleRecorder(device.engine.cycleReports)
            await device.engine.start()
            try await eventually("live") { device.engine.status.changeFeed == .live }
            try await eventually("the catch-up ends") { await cycles.reports.count == 1 }
            _ = try await harness.takeRequests(includingExtensions: true)

            #expect(try await harness.controls.dropChangeFeeds() == 1)
            try await eventually("the engine waits to reconnect") {
                if case .retrying = device.engine.status.changeFeed { return true }
                return false
            }
            try await writer.todos.insert(TodoItem(id: "b", text: "written while the feed was down"))
            try await writer.context.push()
            #expect(try await device.todos.lookup(id: "b") == nil)
            guard case .retrying(let until) = device.engine.status.changeFeed else { return }
            device.clock.advance(to: until)

            try await eventually("b reaches the device") { try await device.todos.lookup(id: "b") != nil }
            let requests = try await harness.takeRequests(includingExtensions: true)
            let feed = try #require(requests.first { $0.path == "/sync/changes" })
            #expect(feed.header("Last-Event-ID") != nil, "the reconnection asks for what came after its position")
            #expect(feed.query.contains { $0.name == "tables" && $0.value == "TodoItem" })
            let pulls = requests.filter { $0.method == "GET" && $0.path == "/tables/TodoItem" }
            #expect(!pulls.isEmpty)
            #expect(pulls.allSatisfy { $0.rawQuery?.contains("updatedAt") == true }, "incremental, not a full pull")
            await device.engine.stop()
        }
    }

    @Test func aServerRestartIsCaughtUpWithAnIncrementalPull() async throws {
        let directory = try TemporaryDirectory()
        let database = RestartableServer(database: directory.newDatabasePath())
        var server = try await database.start()
        let url = try #require(server.url)
        let port = try #require(url.port)
        let client = SyncClient(url: url)
        let writer = try await SyncContext(store: try SQLiteStore(path: directory.newDatabasePath()), client: client)
        let writerTodos = try await writer.table(TodoItem.self)
        let clock = ManualSyncClock()
        let context = try await SyncContext(
            store: try SQLiteStore(path: directory.newDatabasePath()), client: SyncClient(url: url))
        let todos = try await context.table(TodoItem.self)
        let engine = SyncEngine(
            context: context, definitions: [SyncDefinition(todos, queryId: "todos", schedule: Self.live)],
            configuration: Self.configuration, clock: clock, random: { 0.5 }, logger: EngineDevice.quietLogger)
        let cycles = CycleRecorder(engine.cycleReports)
        await engine.start()
        try await eventually("live") { engine.status.changeFeed == .live }
        try await eventually("the catch-up ends") { await cycles.reports.count == 1 }
        try await writerTodos.insert(TodoItem(id: "a", text: "before the restart"))
        try await writer.push()
        try await eventually("a arrives") { try await todos.lookup(id: "a") != nil }

        try await server.stop()
        try await eventually("the engine waits to reconnect") {
            if case .retrying = engine.status.changeFeed { return true }
            return false
        }
        server = try await database.start(port: port)
        try await writerTodos.insert(TodoItem(id: "c", text: "while the feed was down"))
        try await writer.push()
        guard case .retrying(let until) = engine.status.changeFeed else { return }
        let pullsBefore = await cycles.reports.count
        clock.advance(to: until)

        // The new instance does not know the old position: it answers with a reset, and the engine catches up.
        try await eventually("c arrives") { try await todos.lookup(id: "c") != nil }
        try await eventually("live again") { engine.status.changeFeed == .live }
        let reports = await cycles.reports.dropFirst(pullsBefore)
        #expect(reports.flatMap(\.pulls).allSatisfy { $0.summary.received <= 1 }, "incremental: only c")
        await engine.stop()
        try await server.stop()
    }

    @Test func changesOfTablesWithoutALiveDefinitionAreNoWork() async throws {
        try await SyncHarness.with { harness in
            let writer = try await harness.device()
            let notes = try await writer.context.table(JSONObject.self, named: "Note")
            let device = try await EngineDevice.make(
                harness, configuration: Self.configuration, todoSchedule: Self.live,
                noteSchedule: SyncSchedule(triggers: [.intervalOnly]))
            let cycles = CycleRecorder(device.engine.cycleReports)
            await device.engine.start()
            try await eventually("live") { device.engine.status.changeFeed == .live }
            try await eventually("the catch-up ends") { await cycles.reports.count == 1 }

            try await notes.insert(JSONObject(["id": "n", "text": "a note"]))
            try await writer.context.push()
            try await writer.todos.insert(TodoItem(id: "t", text: "a todo"))
            try await writer.context.push()
            try await eventually("the todo arrives") { try await device.todos.lookup(id: "t") != nil }

            let reports = await cycles.reports.dropFirst()
            #expect(reports.count == 1, "the note's change is no work: \(reports.map(\.description))")
            #expect(reports.flatMap(\.pulls).map(\.table) == ["TodoItem"])
            #expect(try await device.notes.lookup(id: "n") == nil)
            await device.engine.stop()
        }
    }

    @Test func aFeedThatKeepsFailingRestsForTheBreakersCooldownWhileTheScheduleGoesOn() async throws {
        try await SyncHarness.with { harness in
            try await harness.controls.addFault(
                FaultRule(method: "GET", path: "/sync/changes", occurrence: nil, action: .respond(status: 500)))
            let device = try await EngineDevice.make(
                harness, configuration: Self.configuration,
                todoSchedule: SyncSchedule(interval: .seconds(600), triggers: [.serverChange]),
                noteSchedule: SyncSchedule(triggers: [.intervalOnly]))
            await device.engine.start()
            var attempts = 0
            var waits: [TimeInterval] = []
            while attempts < Self.configuration.breakerThreshold {
                let now = device.clock.now()
                try await eventually("attempt \(attempts + 1) fails") {
                    if case .retrying(let until) = device.engine.status.changeFeed, until > now { return true }
                    return false
                }
                attempts += 1
                guard case .retrying(let until) = device.engine.status.changeFeed else { return }
                waits.append(until.timeIntervalSince(now))
                if attempts < Self.configuration.breakerThreshold { device.clock.advance(to: until) }
            }

            let feeds = try await harness.takeRequests(includingExtensions: true).filter { $0.path == "/sync/changes" }
            #expect(feeds.count == Self.configuration.breakerThreshold)
            // Backoff (jitter 0.5 of 10 s, then 20 s), then the breaker's two minutes.
            #expect(waits == [5, 10, 120])
            #expect(device.engine.state == .idle, "the engine itself is fine: its schedule goes on")
            await device.engine.stop()
        }
    }

    @Test func aServerWithoutAFeedLeavesTheEngineOnItsSchedules() async throws {
        try await SyncHarness.with(changeHeartbeat: .zero) { harness in
            let device = try await EngineDevice.make(
                harness, configuration: Self.configuration,
                todoSchedule: SyncSchedule(triggers: [.appStart, .serverChange]),
                noteSchedule: SyncSchedule(triggers: [.intervalOnly]))
            try await device.startAndSettle()

            try await eventually("the engine sees there is no feed") {
                device.engine.status.changeFeed == .unavailable
            }
            let feeds = try await harness.takeRequests(includingExtensions: true).filter { $0.path == "/sync/changes" }
            #expect(feeds.isEmpty, "the capabilities document says there is none: no request")
            #expect(device.engine.state == .idle)
            await device.engine.stop()
        }
    }
}
