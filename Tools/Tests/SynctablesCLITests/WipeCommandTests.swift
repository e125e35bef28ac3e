import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("synctables wipe")
struct WipeCommandTests {
    /// A store with pulled rows and their token, a pending insert, and a table the app never opens.
    private static func filledStore(_ harness: CLIHarness) async throws -> String {
        try await harness.seed("todo", [["id": "a"], ["id": "b"]])
        let path = harness.newStorePath()
        try await harness.withContext(path) { context in
            let todo = try await context.table(JSONObject.self, named: "todo")
            try await todo.pull(queryId: "q")
            _ = try await todo.insert(["id": "local"])
            let notes = try await context.table(JSONObject.self, named: "note")
            _ = try await notes.insert(["id": "n"])
        }
        return path
    }

    @Test func wipeWithoutYesExits64AndChangesNothing() async throws {
        try await CLIHarness.with { harness in
            let path = try await Self.filledStore(harness)

            let run = try await harness.run(["wipe"], store: path)

            #expect(run.status == 64)
            #expect(run.stderrLines.count == 1 && run.stderr.contains("--yes"), "\(run.stderr)")
            #expect(try await rows("todo", in: path).count == 3)
            #expect(try await harness.run(["queue", "--json"], store: path).json["operations"]?.arrayValue?.count == 2)
        }
    }

    @Test func wipeYesRemovesEveryRowTheQueueAndTheTokensAndReportsThemAsJSON() async throws {
        try await CLIHarness.with { harness in
            let path = try await Self.filledStore(harness)

            let run = try await harness.run(["wipe", "--yes", "--json"], store: path)

            #expect(run.status == 0, "\(run.stderr)")
            let json = try run.json
            #expect(json["wiped"] == true && json["tables"] == ["note", "todo"])
            #expect(json["rows"] == 4 && json["operations"] == 2 && json["tokens"] == 1)
            #expect(try await rows("todo", in: path).isEmpty)
            #expect(try await rows("note", in: path).isEmpty)
            let status = try await harness.run(["status", "--json"], store: path)
            #expect(status.status == 0, "\(status.stderr)")
            #expect(try status.json["pendingOperations"] == 0)
            #expect(try await harness.run(["queue", "--json"], store: path).json["operations"] == .array([]))
        }
    }

    @Test func wipeWhileAnotherProcessPushesExits11AndWithWaitWipesOnceThePushEnds() async throws {
        try await CLIHarness.with { harness in
            let path = try await Self.filledStore(harness)
            let started = Gate()
            let proceed = Gate()
            let handler = PausingPushHandler(started: started, proceed: proceed)
            try await harness.withContext(path, pushHandler: handler) { context in
                // Given the app in the middle of its push,
                let push = Task { try await context.push() }
                await started.wait()

                // when synctables wipes the same file, without and with --wait,
                let refused = try await harness.run(["wipe", "--yes", "--json"], store: path)
                let rowsAfterRefusal = try await rows("todo", in: path).count
                let waiting = Task { try await harness.run(["wipe", "--yes", "--wait", "--json"], store: path) }
                try await Task.sleep(for: .milliseconds(300))
                await proceed.open()
                _ = try await push.value
                let waited = try await waiting.value

                // then the first is refused, changing nothing, and the second wipes after the push.
                #expect(refused.status == 11, "\(refused.stdout) \(refused.stderr)")
                #expect(try refused.json["error"]?.objectValue?["kind"] == "pushInProgress")
                #expect(rowsAfterRefusal == 3)
                #expect(waited.status == 0, "\(waited.stderr)")
                #expect(try waited.json["operations"] == 0, "the push sent every operation first")
            }
            #expect(try await rows("todo", in: path).isEmpty)
            let posted = try await harness.controls.requests().filter { $0.method == "POST" }
            #expect(posted.count == 2, "both inserts were pushed, once")
        }
    }
}
