import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("Sync engine: killed during a backoff")
struct SyncEngineCrashTests {
    @Test func attemptCountsAndRetryTimesSurviveAKillDuringABackoff() async throws {
        try await SyncHarness.with { harness in
            // Given: a queued insert, and a server that answers it 503 with Retry-After: 600.
            let path = harness.directory.newDatabasePath()
            let context = try await SyncContext(store: try SQLiteStore(path: path))
            let notes = try await context.table(JSONObject.self, named: "Note")
            try await notes.insert(["id": "n1", "body": "hello"])
            try await context.close()
            try await harness.controls.addFault(
                FaultRule(
                    method: "POST", path: "/tables/Note",
                    action: .respond(status: 503, headers: ["Retry-After": "600"])))
            _ = try await harness.takeRequests()

            // When: an app process's engine gets that answer and is killed -9 while it waits.
            let child = CrashChildProcess(
                arguments: ["engine", harness.url.absoluteString, path, "Note"], logDirectory: harness.directory.url)
            let started = Date()
            let outcome = try await child.run(killingAt: .afterRequests(1, .milliseconds(500))) {
                try await harness.controls.requests().filter { $0.method == "POST" }.count
            }
            #expect(outcome == .killed)

            // Then: a restarted app waits out the rest of the 600 s, not the whole delay and not none of it.
            let clock = ManualSyncClock()
            let reopened = try await SyncContext(
                store: try SQLiteStore(path: path), client: SyncClient(url: harness.url))
            let operation = try #require(try await reopened.pendingOperations().first)
            #expect(operation.attempts == 1 && operation.state == .failed)
            let retryAt = try #require(try await reopened.earliestRetryTime())
            #expect(retryAt > started.addingTimeInterval(599) && retryAt < Date().addingTimeInterval(601))
            let table = try await reopened.table(JSONObject.self, named: "Note")
            let engine = SyncEngine(
                context: reopened, definitions: [SyncDefinition(table)], clock: clock, logger: EngineDevice.quietLogger)
            _ = try await harness.takeRequests()

            await engine.syncNow()
            #expect(try await harness.takeRequests().filter { $0.method == "POST" }.isEmpty)

            clock.advance(to: retryAt)
            await engine.syncNow()
            #expect(try await harness.takeRequests().filter { $0.method == "POST" }.count == 1)
            #expect(try await reopened.pendingOperationCount() == 0)
            #expect(try await harness.serverItem("n1", table: "Note") != nil)
        }
    }
}
