import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("Sync engine: the server goes away and comes back")
struct SyncEngineServerDownTests {
    @Test func theBreakerOpensWhileTheServerIsDownAndAProbeClosesItOnceItIsBack() async throws {
        let directory = try TemporaryDirectory()
        let servers = RestartableServer(database: directory.newDatabasePath())
        var server = try await servers.start()
        let url = try #require(server.url)
        let port = try #require(url.port)
        let clock = ManualSyncClock()
        let context = try await SyncContext(
            store: try SQLiteStore(path: directory.newDatabasePath()), client: SyncClient(url: url))
        let todos = try await context.table(TodoItem.self)
        let engine = SyncEngine(
            context: context, definitions: [SyncDefinition(todos, queryId: "all")],
            configuration: SyncEngineConfiguration(breakerThreshold: 3, breakerCooldown: .seconds(120)),
            clock: clock, random: { 0.5 }, logger: EngineDevice.quietLogger)
        try await todos.insert(TodoItem(id: "a", text: "one"))

        // The server stops: three failed cycles open the breaker.
        try await server.stop()
        for _ in 0..<3 { await engine.syncNow() }
        guard case .paused(let until) = engine.state else {
            Issue.record("the breaker did not open: \(engine.state)")
            return
        }

        // It comes back on the same port while the breaker is open: nothing reaches it before the cooldown.
        server = try await servers.start(port: port)
        try await server.stopping {
            let controls = try #require(server.testControls)
            clock.advance(by: .seconds(60))
            let scheduled = await engine.cycle(reason: "scheduled", definitions: nil, explicit: false).value
            #expect(scheduled.outcome == .skipped(.paused(until: until)))
            #expect(await controls.requests().isEmpty)

            clock.advance(to: until)
            #expect(await engine.syncNow().outcome == .completed)

            let requests = await controls.requests().map { "\($0.method) \($0.path)" }
            #expect(requests.first == "GET /tables/TodoItem")  // the probe, then the cycle
            #expect(requests.contains("POST /tables/TodoItem"))
            #expect(engine.state == .idle)
            #expect(try await context.pendingOperationCount() == 0)
        }
        try await context.close()
    }

    @Test func aPullThatCannotReachTheServerBacksOffLikeAFailedPush() async throws {
        let directory = try TemporaryDirectory()
        let server = try await SyncServer(configuration: SyncServerConfiguration(port: 0).withTestControls())
        try await server.start()
        let url = try #require(server.url)
        let context = try await SyncContext(
            store: try SQLiteStore(path: directory.newDatabasePath()), client: SyncClient(url: url))
        let todos = try await context.table(TodoItem.self)
        let engine = SyncEngine(
            context: context, definitions: [SyncDefinition(todos, queryId: "all")],
            clock: ManualSyncClock(), random: { 0.5 }, logger: EngineDevice.quietLogger)

        // Nothing is queued, so the pull is the cycle's first request, and the server is gone.
        try await server.stop()
        let report = await engine.syncNow()

        guard case .failed = report.outcome, case .backoff = engine.state else {
            Issue.record("expected a failed cycle and a backoff, got \(report.outcome) and \(engine.state)")
            return
        }
        #expect(report.failedPulls.isEmpty)
        try await context.close()
    }
}
