import Foundation
import SyncTablesServer
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("Wipe and the sync engine")
struct WipeEngineTests {
    /// Waits (up to five seconds) until `condition` holds.
    private static func eventually(_ condition: () async -> Bool) async throws -> Bool {
        for _ in 0..<500 {
            if await condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    @Test func aStartedEngineForgetsItsBackoffAndShowsTheEmptyQueueAfterAWipe() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            try await device.todos.insert(TodoItem(id: "a", text: "x"))
            let until = Date().addingTimeInterval(600)
            try await device.context.setEngineBackoff(EngineBackoff(failures: 1, until: until))
            let engine = SyncEngine(context: device.context, definitions: [SyncDefinition(device.todos)])
            await engine.start()
            #expect(engine.state != .idle, "the persisted backoff holds the engine")

            try await device.context.wipe()

            #expect(try await Self.eventually { engine.state == .idle && engine.status.pendingOperations == 0 })
            #expect(try await device.context.engineBackoff() == nil)
            await engine.stop()
        }
    }

    @Test func anEngineStartedAfterAWipeIsIdleAndItsFirstPullIsFull() async throws {
        try await SyncHarness.with { harness in
            try await harness.controls.seed(
                table: "TodoItem",
                items: [["id": "s", "text": "s", "complete": false, "updatedAt": "2001-01-01T00:00:00.000Z"]])
            let device = try await harness.device()
            let definition = SyncDefinition(
                device.todos, queryId: "q", schedule: SyncSchedule(triggers: [.appStart]))
            let engine = SyncEngine(context: device.context, definitions: [definition])
            _ = await engine.syncNow()
            try await device.context.setEngineBackoff(
                EngineBackoff(failures: 2, until: Date().addingTimeInterval(600)))

            try await device.context.wipe()
            _ = try await harness.takeRequests()
            await engine.start()
            let stateAfterStart = engine.state

            if case .backoff = stateAfterStart { Issue.record("the wiped backoff was read back: \(stateAfterStart)") }
            #expect(try await Self.eventually { (try? await device.todos.lookup(id: "s")) != nil })
            let pull = try #require(try await harness.takeRequests().first { $0.method == "GET" })
            #expect(pull.queryValue("$filter") == "(updatedAt ge datetimeoffset'1970-01-01T00:00:00.000Z')")
            await engine.stop()
        }
    }
}
