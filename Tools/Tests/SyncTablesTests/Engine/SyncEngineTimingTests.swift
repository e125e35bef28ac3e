import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// When the engine wakes by itself, what it waits for, and what an explicit call does: on the real clock
/// against a real, sometimes slow `sync-server` (the defects these tests hold hid from manual-clock tests),
/// and on the manual clock where the exact times matter.
@Suite("Sync engine: timing of retries, backoffs and pauses")
struct SyncEngineTimingTests {
    @Test func aRetryThatFallsDueWhileItsOwnCycleStillPullsIsSentWhenTheCycleEnds() async throws {
        try await SyncHarness.with { harness in
            // The insert's POST gets 503 with Retry-After: 1, and the pull that follows takes 1.5 s: the
            // retry falls due before the cycle ends.
            try await harness.controls.addFault(
                FaultRule(
                    method: "POST", path: "/tables/TodoItem",
                    action: .respond(status: 503, headers: ["Retry-After": "1"])))
            try await harness.controls.addFault(
                FaultRule(method: "GET", path: "/tables/TodoItem", action: .delay(milliseconds: 1_500)))
            let device = try await RealClockDevice.make(
                harness, triggers: [.afterLocalWrite(debounce: .milliseconds(50))])
            try await device.startAndSettle()
            try await device.todos.insert(TodoItem(id: "a", text: "one"))

            // (Read locally: a GET of the test's own would meet the slow answer meant for the engine's pull.)
            try await eventually("the retried insert is confirmed") {
                try await device.context.pendingOperationCount() == 0
            }
            #expect(try await harness.serverItem("a") != nil)
            let posts = try await harness.takeTableRequests().filter { $0.hasPrefix("POST") }
            #expect(posts == ["POST /tables/TodoItem", "POST /tables/TodoItem"])
            await device.engine.stop()
            try await device.context.close()
        }
    }

    @Test func aRetryWhoseJitterDrawsZeroIsSentRightAfterItsCycle() async throws {
        try await SyncHarness.with { harness in
            try await harness.controls.addFault(
                FaultRule(method: "POST", path: "/tables/TodoItem", action: .respond(status: 503)))
            let device = try await RealClockDevice.make(
                harness, triggers: [.afterLocalWrite(debounce: .milliseconds(50))], random: { 0 })
            try await device.startAndSettle()
            // One cycle: the POST fails with a retry time of "now", then the pull runs; by the end of the
            // cycle the retry is overdue.
            try await device.todos.insert(TodoItem(id: "a", text: "one"))

            try await eventually("the retried insert reaches the server") {
                try await harness.serverItem("a") != nil
            }
            await device.engine.stop()
            try await device.context.close()
        }
    }

    @Test func aFailedCycleWaitsForTheServersRetryAfterOnTheRealClock() async throws {
        try await SyncHarness.with { harness in
            // Nothing is queued: the pull is the cycle's first request, and it gets 503 with Retry-After: 2
            // where the backoff alone would wait at most 0.2 s.
            try await harness.controls.addFault(
                FaultRule(
                    method: "GET", path: "/tables/TodoItem",
                    action: .respond(status: 503, headers: ["Retry-After": "2"])))
            let device = try await RealClockDevice.make(harness, triggers: [.appStart])
            let started = ContinuousClock.now
            await device.engine.start()

            try await eventually("the pull is asked again and succeeds") {
                device.engine.status.lastSuccessfulPull != nil
            }
            // The 503 came back within moments of the start; the next GET waited the 2 s the server asked for.
            #expect(ContinuousClock.now - started >= .milliseconds(1_900))
            #expect(try await harness.takeTableRequests() == ["GET /tables/TodoItem", "GET /tables/TodoItem"])
            await device.engine.stop()
            try await device.context.close()
        }
    }

    @Test func aFailedCycleBacksOffForTheServersRetryAfterAndPersistsIt() async throws {
        try await SyncHarness.with { harness in
            let device = try await EngineDevice.make(
                harness,
                configuration: SyncEngineConfiguration(
                    retry: RetryPolicy(baseDelay: .milliseconds(200)), breakerThreshold: 2,
                    breakerCooldown: .seconds(5)))
            try await harness.controls.addFault(
                FaultRule(
                    method: "GET", path: "/tables/TodoItem", occurrence: nil,
                    action: .respond(status: 429, headers: ["Retry-After": "2"])))

            await device.engine.syncNow()
            let retryAt = device.clock.now().addingTimeInterval(2)
            #expect(device.engine.state == .backoff(until: retryAt))
            let persisted = try #require(try await device.context.engineBackoff())
            #expect(abs(persisted.until.timeIntervalSince(retryAt)) < 0.001)  // stored to the millisecond

            // The breaker's cooldown is lengthened to a longer Retry-After than its own.
            try await harness.controls.clearFaults()
            try await harness.controls.addFault(
                FaultRule(
                    method: "GET", path: "/tables/TodoItem", occurrence: nil,
                    action: .respond(status: 503, headers: ["Retry-After": "30"])))
            await device.engine.syncNow()
            #expect(device.engine.state == .paused(until: device.clock.now().addingTimeInterval(30)))
        }
    }

    @Test func syncNowWhileTheBreakerIsOpenProbesAtOnceAndClosesItWhenTheServerIsBack() async throws {
        try await SyncHarness.with { harness in
            let device = try await EngineDevice.make(harness)  // threshold 3, cooldown 120 s
            try await device.todos.insert(TodoItem(id: "a", text: "one"))
            let until = try await openTheBreaker(of: device, harness)

            // Still failing: the probe goes out at once, fails, and the cooldown starts again.
            device.clock.advance(by: .seconds(30))
            guard case .failed = await device.engine.syncNow().outcome else {
                Issue.record("a probe against a dropped connection must fail")
                return
            }
            // (libcurl may send the request again on a fresh connection once: still the one probe.)
            let probes = try await harness.takeTableRequests()
            #expect(!probes.isEmpty && probes.allSatisfy { $0 == "GET /tables/TodoItem" })
            let restarted = device.clock.now().addingTimeInterval(120)
            #expect(device.engine.state == .paused(until: restarted))
            #expect(restarted > until)

            // The server is back: the user's "Retry now" probes, closes the breaker and syncs.
            try await harness.controls.clearFaults()
            device.clock.advance(by: .seconds(10))
            #expect(await device.engine.syncNow().outcome == .completed)
            let requests = try await harness.takeTableRequests()
            #expect(requests.first == "GET /tables/TodoItem")  // the probe
            #expect(requests.contains("POST /tables/TodoItem"))
            #expect(device.engine.state == .idle)
        }
    }

    @Test func theNetworkComingBackAllowsOneProbeBeforeTheCooldownEnds() async throws {
        try await SyncHarness.with { harness in
            let monitor = ManualNetworkMonitor(.online)
            let device = try await EngineDevice.make(harness, networkMonitor: monitor)
            try await device.startAndSettle()
            try await device.todos.insert(TodoItem(id: "a", text: "one"))
            _ = try await openTheBreaker(of: device, harness)
            try await harness.controls.clearFaults()

            // Offline and back, well before the 120 s cooldown ends: one probe, then the queue.
            monitor.set(.offline)
            try await device.waitForState { $0 == .offline }
            monitor.set(.online)
            try await eventually("the probe closes the breaker and the queue is pushed") {
                try await device.context.pendingOperationCount() == 0 && device.engine.state == .idle
            }
            let requests = try await harness.takeTableRequests()
            #expect(requests.first == "GET /tables/TodoItem")
            #expect(requests.contains("POST /tables/TodoItem"))
            await device.engine.stop()
        }
    }

    @Test func aPausedEngineComesBackByItselfWhenTheCooldownEndsOnTheRealClock() async throws {
        let directory = try TemporaryDirectory()
        let servers = RestartableServer(database: directory.newDatabasePath())
        var server = try await servers.start()
        let url = try #require(server.url)
        let context = try await SyncContext(
            store: try SQLiteStore(path: directory.newDatabasePath()), client: SyncClient(url: url))
        let todos = try await context.table(TodoItem.self)
        // No schedule of its own: after its start the engine has nothing due, whatever happens.
        let engine = SyncEngine(
            context: context,
            definitions: [SyncDefinition(todos, queryId: "all", schedule: SyncSchedule(triggers: []))],
            configuration: SyncEngineConfiguration(
                retry: RetryPolicy(baseDelay: .milliseconds(100)), breakerThreshold: 2,
                breakerCooldown: .seconds(2)),
            logger: EngineDevice.quietLogger)
        await engine.start()
        try await eventually("the start's push ends") { engine.status.lastSuccessfulPush != nil }

        // The server goes away, a write waits, and the user's "Retry now" presses open the breaker.
        try await server.stop()
        try await todos.insert(TodoItem(id: "a", text: "one"))
        await engine.syncNow()
        await engine.syncNow()
        guard case .paused = engine.state else {
            Issue.record("the breaker did not open: \(engine.state)")
            return
        }

        // The server comes back on the same port while the breaker is open; nothing else happens.
        server = try await servers.start(port: try #require(url.port))
        try await server.stopping {
            let controls = try #require(server.testControls)
            try await eventually("the engine probes and pushes by itself after the cooldown") {
                try await context.pendingOperationCount() == 0
            }
            let requests = await controls.requests().map { "\($0.method) \($0.path)" }
            #expect(requests.first == "GET /tables/TodoItem")  // the probe
            #expect(requests.contains("POST /tables/TodoItem"))
        }
        await engine.stop()
        try await context.close()
    }

    @Test func aPushWithNothingToSendSendsNothing() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            try await device.context.push()
            // An insert and a delete of the same item collapse to nothing.
            let item = try await device.todos.insert(TodoItem(id: "", text: "gone"))
            try await device.todos.delete(id: item.id)
            try await device.context.push()
            #expect(try await harness.takeRequests(includingExtensions: true).isEmpty)

            // Something to send: the extensions are asked for, once, and the insert goes out.
            try await device.todos.insert(TodoItem(id: "b", text: "kept"))
            try await device.context.push()
            let paths = try await harness.takeRequests(includingExtensions: true).map(\.path)
            #expect(paths.first == "/sync/capabilities")
            #expect(try await harness.serverItem("b") != nil)
            try await device.context.close()
        }
    }

    @Test func anEnginePushOfOnlyWaitingOperationsSendsNothing() async throws {
        try await SyncHarness.with { harness in
            let device = try await EngineDevice.make(harness)  // base 10 s
            try await harness.controls.addFault(
                FaultRule(method: "POST", path: "/tables/TodoItem", action: .respond(status: 503)))
            try await device.todos.insert(TodoItem(id: "a", text: "one"))
            await device.engine.syncNow()  // the insert fails and waits 5 s
            try await device.context.close()

            // A new client, which has not asked for the server's extensions yet.
            let reopened = try await EngineDevice.make(harness, path: device.device.path, clock: device.clock)
            _ = try await harness.takeRequests(includingExtensions: true)
            let retry = await reopened.engine.configuration.retry
            let push = try reopened.context.makePush(
                failurePolicy: EngineFailurePolicy(
                    retry: retry, now: device.clock.now(), clock: device.clock, unitRandom: { 0.5 }))
            _ = try await reopened.context.perform { try await push.run() }
            #expect(try await harness.takeRequests(includingExtensions: true).isEmpty)
            #expect(try await reopened.context.pendingOperationCount() == 1)
        }
    }

    /// Three cycles against dropped connections open `device`'s breaker (threshold 3); returns its end. The
    /// fault stays until the caller clears it; the requests so far are taken.
    private func openTheBreaker(of device: EngineDevice, _ harness: SyncHarness) async throws -> Date {
        try await harness.controls.addFault(
            FaultRule(path: "/tables/", matchesPrefix: true, occurrence: nil, action: .dropConnection))
        for _ in 0..<3 { await device.engine.syncNow() }
        guard case .paused(let until) = device.engine.state else {
            Issue.record("the breaker did not open: \(device.engine.state)")
            return device.clock.now()
        }
        _ = try await harness.takeRequests()
        return until
    }
}

/// A device whose engine runs on the system clock, pulling `TodoItem` on the given triggers.
private struct RealClockDevice {
    let context: SyncContext
    let todos: SyncTable<TodoItem>
    let engine: SyncEngine

    static func make(
        _ harness: SyncHarness, triggers: Set<SyncTrigger>, random: @escaping @Sendable () -> Double = { 0.5 }
    ) async throws -> RealClockDevice {
        let context = try await SyncContext(
            store: try SQLiteStore(path: harness.directory.newDatabasePath()), client: SyncClient(url: harness.url))
        let todos = try await context.table(TodoItem.self)
        let engine = SyncEngine(
            context: context,
            definitions: [SyncDefinition(todos, queryId: "todos", schedule: SyncSchedule(triggers: triggers))],
            configuration: SyncEngineConfiguration(
                retry: RetryPolicy(baseDelay: .milliseconds(200), maximumDelay: .seconds(5), maxAttempts: 5)),
            random: random, logger: EngineDevice.quietLogger)
        return RealClockDevice(context: context, todos: todos, engine: engine)
    }

    /// Starts the engine and waits for the push its start runs to end.
    func startAndSettle() async throws {
        await engine.start()
        try await eventually("the start's push ends") {
            engine.status.lastSuccessfulPush != nil && engine.state == .idle
        }
    }
}
