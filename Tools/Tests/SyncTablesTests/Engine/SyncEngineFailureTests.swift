import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("Sync engine: failures handled by the library")
struct SyncEngineFailureTests {
    @Test func anOperationTheServerRefusesIsDeadLetteredAndBlocksNeitherOtherOperationsNorPulls() async throws {
        try await SyncHarness.with { harness in
            let device = try await EngineDevice.make(harness)
            try await device.todos.insert(TodoItem(id: "poison", text: "v1"))
            #expect(await device.engine.syncNow().outcome == .completed)
            try await harness.controls.addFault(
                FaultRule(
                    method: "PATCH", path: "/tables/TodoItem/poison", occurrence: nil, action: .respond(status: 400)))
            try await edit("poison", to: "v2", on: device.todos)
            try await device.todos.insert(TodoItem(id: "good", text: "fine"))
            _ = try await harness.controls.seed(table: "Note", items: [["id": "n1", "body": "from the server"]])
            _ = try await harness.takeRequests()

            let report = await device.engine.syncNow()

            #expect(report.outcome == .completed)
            #expect(report.pushedOperations == 1 && report.failedOperations == 1)
            #expect(report.pulls.map(\.table) == ["TodoItem", "Note"])
            #expect(try await device.notes.lookup(id: "n1") != nil)
            let dead = try await device.context.deadOperations()
            #expect(dead.map(\.itemId) == ["poison"])
            #expect(dead.first?.error?.status == 400)
            #expect(dead.first?.operation.state == .dead)
            #expect(dead.first?.attempts.map(\.status) == [400])
            #expect(try await harness.serverItem("good") != nil)

            // Later cycles and plain pulls neither resend it nor fail because of it.
            _ = try await harness.controls.seed(
                table: "TodoItem", items: [["id": "remote", "text": "new", "complete": false]])
            _ = try await harness.takeRequests()
            #expect(await device.engine.syncNow().outcome == .completed)
            try await device.todos.pull()
            let requests = try await harness.takeTableRequests()
            #expect(!requests.contains("PATCH /tables/TodoItem/poison"))
            #expect(try await device.todos.lookup(id: "remote") != nil)
            #expect(try await device.todos.lookup(id: "poison")?.text == "v2")  // the local change is kept
        }
    }

    @Test func deadOperationsCanBeRetriedDiscardedOrRevertedToTheServersCopy() async throws {
        try await SyncHarness.with { harness in
            let device = try await EngineDevice.make(harness)
            for id in ["a", "b", "c"] { try await device.todos.insert(TodoItem(id: id, text: "server")) }
            await device.engine.syncNow()
            try await harness.controls.addFault(
                FaultRule(
                    method: "PATCH", path: "/tables/TodoItem/", matchesPrefix: true, occurrence: nil,
                    action: .respond(status: 422)))
            for id in ["a", "b", "c"] { try await edit(id, to: "local", on: device.todos) }
            await device.engine.syncNow()
            let dead = try await device.context.deadOperations()
            #expect(dead.count == 3)
            let byItem = Dictionary(uniqueKeysWithValues: dead.map { ($0.itemId, $0.id) })

            try await device.context.revertToServer(operationId: try #require(byItem["a"]))
            #expect(try await device.todos.lookup(id: "a")?.text == "server")
            #expect(try await device.context.discardDeadOperations(ids: [try #require(byItem["b"])]) == 1)
            #expect(try await device.todos.lookup(id: "b") == nil)

            try await harness.controls.clearFaults()
            #expect(try await device.context.retryDeadOperations() == 1)
            await device.engine.syncNow()
            #expect(try await harness.serverItem("c")?["text"] == "local")
            #expect(try await device.context.pendingOperationCount() == 0)
            #expect(try await device.context.deadOperations().isEmpty)
        }
    }

    @Test func aRevertThatCannotFetchTheServersCopyThrowsASyncErrorAndKeepsTheDeadOperation() async throws {
        try await SyncHarness.with { harness in
            let device = try await EngineDevice.make(harness)
            try await device.todos.insert(TodoItem(id: "a", text: "server"))
            await device.engine.syncNow()
            try await harness.controls.addFault(
                FaultRule(method: "PATCH", path: "/tables/TodoItem/a", occurrence: nil, action: .respond(status: 422)))
            try await edit("a", to: "local", on: device.todos)
            await device.engine.syncNow()
            let dead = try #require(try await device.context.deadOperations().first)
            try await harness.controls.addFault(
                FaultRule(method: "GET", path: "/tables/TodoItem/a", occurrence: nil, action: .respond(status: 500)))

            let error = await #expect(throws: SyncError.self) {
                try await device.context.revertToServer(operationId: dead.id)
            }

            guard case .server(let failure) = error else {
                Issue.record("expected SyncError.server, got \(String(describing: error))")
                return
            }
            #expect(failure.status == 500)
            #expect(try await device.context.deadOperations().map(\.id) == [dead.id])
            #expect(try await device.todos.lookup(id: "a")?.text == "local")
        }
    }

    @Test func aLocalWriteToADeadItemRevivesItsOperation() async throws {
        try await SyncHarness.with { harness in
            let device = try await EngineDevice.make(harness)
            try await device.todos.insert(TodoItem(id: "a", text: "one"))
            await device.engine.syncNow()
            try await harness.controls.addFault(
                FaultRule(method: "PATCH", path: "/tables/TodoItem/a", action: .respond(status: 400)))
            try await edit("a", to: "two", on: device.todos)
            await device.engine.syncNow()
            #expect(try await device.context.deadOperations().count == 1)

            try await edit("a", to: "three", on: device.todos)

            #expect(try await device.context.deadOperations().isEmpty)
            #expect(try await device.context.pendingOperations().first?.state == .pending)
            await device.engine.syncNow()
            #expect(try await harness.serverItem("a")?["text"] == "three")
        }
    }

    @Test func transientFailuresBackOffWithJitterAndDeadLetterAfterMaxAttempts() async throws {
        try await SyncHarness.with { harness in
            let device = try await EngineDevice.make(harness)  // base 10 s, jitter unit 0.5, 3 attempts
            try await device.todos.insert(TodoItem(id: "a", text: "one"))
            await device.engine.syncNow()
            try await harness.controls.addFault(
                FaultRule(method: "PATCH", path: "/tables/TodoItem/a", occurrence: nil, action: .respond(status: 503)))
            try await edit("a", to: "two", on: device.todos)
            _ = try await harness.takeRequests()

            var patches: [Int] = []
            // Failure 1 at t=0 (next at +5 s), failure 2 at t=5 (next at +10 s), failure 3 at t=15: dead.
            for step in [0, 4, 1, 9, 1, 100] {
                device.clock.advance(by: .seconds(step))
                await device.engine.syncNow()
                patches.append(try await harness.takeTableRequests().filter { $0.hasPrefix("PATCH") }.count)
            }

            #expect(patches == [1, 0, 1, 0, 1, 0])
            let dead = try #require(try await device.context.deadOperations().first)
            #expect(dead.attempts.map(\.status) == [503, 503, 503])
        }
    }

    @Test func retryAfterOfA503IsHonoured() async throws {
        try await SyncHarness.with { harness in
            let device = try await EngineDevice.make(harness)
            try await harness.controls.addFault(
                FaultRule(
                    method: "POST", path: "/tables/TodoItem",
                    action: .respond(status: 503, headers: ["Retry-After": "2"])))
            try await device.todos.insert(TodoItem(id: "a", text: "one"))
            await device.engine.syncNow()
            _ = try await harness.takeRequests()

            device.clock.advance(by: .milliseconds(1_900))
            await device.engine.syncNow()
            #expect(try await harness.takeTableRequests().filter { $0.hasPrefix("POST") }.isEmpty)

            device.clock.advance(by: .milliseconds(100))
            await device.engine.syncNow()
            #expect(try await harness.takeTableRequests().filter { $0.hasPrefix("POST") } == ["POST /tables/TodoItem"])
            #expect(try await harness.serverItem("a") != nil)
        }
    }

    @Test func unauthorizedBlocksTheEngineUntilCredentialsChangeThenItResumes() async throws {
        try await SyncHarness.with(authToken: "secret") { harness in
            let token = TokenBox("expired")
            let device = try await EngineDevice.make(harness, token: token)
            try await device.todos.insert(TodoItem(id: "a", text: "one"))
            await device.engine.start()
            try await device.waitForState { $0 == .blockedAuth }
            _ = try await harness.takeRequests()

            #expect(await device.engine.syncNow().outcome == .skipped(.blockedAuth))
            #expect(try await harness.takeRequests().isEmpty)

            token.value = "secret"
            await device.engine.credentialsChanged()
            try await device.waitForState { $0 == .idle }
            try await eventually("the queue is pushed") { try await device.context.pendingOperationCount() == 0 }
            #expect(try await device.todos.lookup(id: "a")?.version != nil)  // the server's answer, stored
            #expect(try await harness.takeTableRequests().contains("POST /tables/TodoItem"))
            await device.engine.stop()
            #expect(device.engine.state == .stopped)
        }
    }

    @Test func theBreakerOpensAfterFailedCyclesSendsNothingWhileOpenAndAProbeClosesIt() async throws {
        try await SyncHarness.with { harness in
            let device = try await EngineDevice.make(harness)  // threshold 3, cooldown 120 s
            try await device.todos.insert(TodoItem(id: "a", text: "one"))
            try await harness.controls.addFault(
                FaultRule(path: "/tables/", matchesPrefix: true, occurrence: nil, action: .dropConnection))
            for _ in 0..<3 {
                guard case .failed = await device.engine.syncNow().outcome else {
                    Issue.record("a cycle against a dropped connection must fail")
                    return
                }
            }
            guard case .paused(let until) = device.engine.state else {
                Issue.record("the breaker did not open: \(device.engine.state)")
                return
            }
            #expect(until == device.clock.now().addingTimeInterval(120))
            _ = try await harness.takeRequests()

            // A cycle the engine starts by itself sends nothing before the cooldown ends (an explicit
            // syncNow would probe at once: SyncEngineTimingTests).
            device.clock.advance(by: .seconds(119))
            let scheduled = await device.engine.cycle(reason: "scheduled", definitions: nil, explicit: false).value
            #expect(scheduled.outcome == .skipped(.paused(until: until)))
            #expect(try await harness.takeRequests().isEmpty)

            try await harness.controls.clearFaults()  // the server is back
            device.clock.advance(by: .seconds(1))
            #expect(await device.engine.syncNow().outcome == .completed)
            let requests = try await harness.takeTableRequests()
            #expect(requests.first == "GET /tables/TodoItem")  // the probe
            #expect(requests.contains("POST /tables/TodoItem"))
            #expect(device.engine.state == .idle)
        }
    }

    @Test func aRestartMidBackoffWaitsOutTheRestOfIt() async throws {
        try await SyncHarness.with { harness in
            let clock = ManualSyncClock()
            var device = try await EngineDevice.make(harness, clock: clock)
            try await harness.controls.addFault(
                FaultRule(
                    method: "POST", path: "/tables/TodoItem",
                    action: .respond(status: 503, headers: ["Retry-After": "60"])))
            try await device.todos.insert(TodoItem(id: "a", text: "one"))
            await device.engine.syncNow()
            try await device.context.close()

            device = try await EngineDevice.make(harness, path: device.device.path, clock: clock)
            _ = try await harness.takeRequests()
            let retryAt = try await device.context.earliestRetryTime()
            #expect(retryAt == clock.now().addingTimeInterval(60))
            clock.advance(by: .seconds(59))
            await device.engine.syncNow()
            #expect(try await harness.takeTableRequests().filter { $0.hasPrefix("POST") }.isEmpty)
            clock.advance(by: .seconds(1))
            await device.engine.syncNow()
            #expect(try await harness.serverItem("a") != nil)
        }
    }

    @Test func aRestartedEngineResumesAPersistedCycleBackoff() async throws {
        try await SyncHarness.with { harness in
            let clock = ManualSyncClock()
            var device = try await EngineDevice.make(harness, clock: clock)
            try await harness.controls.addFault(
                FaultRule(path: "/tables/", matchesPrefix: true, occurrence: nil, action: .dropConnection))
            try await device.todos.insert(TodoItem(id: "a", text: "one"))
            await device.engine.syncNow()
            guard case .backoff(let until) = device.engine.state else {
                Issue.record("expected a backoff, got \(device.engine.state)")
                return
            }
            try await device.context.close()
            try await harness.controls.clearFaults()

            device = try await EngineDevice.make(harness, path: device.device.path, clock: clock)
            await device.engine.start()
            #expect(device.engine.state == .backoff(until: until))
            try await eventually("the engine waits on the clock") { clock.sleeperCount > 0 }
            #expect(try await harness.serverItem("a") == nil)  // nothing sent before the backoff ends
            clock.advance(to: until)
            try await device.waitForState { $0 == .idle }
            try await eventually("the queue is pushed") { try await device.context.pendingOperationCount() == 0 }
            #expect(try await harness.serverItem("a") != nil)
            await device.engine.stop()
        }
    }

    @Test func anUnresolvedConflictIsDeadLetteredAndItsResolutionsStillWork() async throws {
        try await SyncHarness.with { harness in
            let device = try await EngineDevice.make(harness)
            try await device.todos.insert(TodoItem(id: "a", text: "one"))
            await device.engine.syncNow()
            let other = try await harness.device()
            try await other.todos.pull()
            try await edit("a", to: "theirs", on: other.todos)
            try await other.context.push()
            try await edit("a", to: "mine", on: device.todos)

            await device.engine.syncNow()

            let dead = try #require(try await device.context.deadOperations().first)
            let conflict = try #require(dead.error)
            #expect(conflict.isConflict)
            try await conflict.cancelAndUpdateItem(try #require(conflict.serverItem))
            #expect(try await device.todos.lookup(id: "a")?.text == "theirs")
            #expect(try await device.context.pendingOperationCount() == 0)
        }
    }

    @Test func concurrentSyncNowCallsShareOneCycle() async throws {
        try await SyncHarness.with { harness in
            let device = try await EngineDevice.make(harness)
            try await harness.controls.addFault(
                FaultRule(method: "GET", path: "/tables/TodoItem", action: .delay(milliseconds: 300)))
            _ = try await harness.takeRequests()

            async let first = device.engine.syncNow(reason: "first")
            async let second = device.engine.syncNow(reason: "second")
            let reports = await [first, second]

            #expect(reports.map(\.reason) == [reports[0].reason, reports[0].reason])
            let pulls = try await harness.takeTableRequests().filter { $0 == "GET /tables/TodoItem" }
            #expect(pulls.count == 1)
        }
    }

    @Test func plainPullCanGoOnAfterItsImplicitPushLeftErrors() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            try await device.todos.insert(TodoItem(id: "a", text: "one"))
            try await harness.controls.addFault(
                FaultRule(method: "POST", path: "/tables/TodoItem", occurrence: nil, action: .respond(status: 400)))
            _ = try await harness.controls.seed(
                table: "TodoItem", items: [["id": "b", "text": "server", "complete": false]])

            _ = try await requirePushFailure { try await device.todos.pull() }
            #expect(try await device.todos.lookup(id: "b") == nil)

            let summary = try await device.todos.pull(options: PullOptions(continuesAfterFailedPush: true))

            #expect(summary.upserted == 1)
            #expect(try await device.todos.lookup(id: "b") != nil)
            #expect(try await device.todos.lookup(id: "a")?.text == "one")  // the pending insert is untouched
        }
    }
}

/// Changes an item's text through a local update.
func edit(_ id: String, to text: String, on todos: SyncTable<TodoItem>) async throws {
    var item = try #require(try await todos.lookup(id: id))
    item.text = text
    try await todos.update(item)
}
