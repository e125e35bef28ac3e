import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("synctables next to a running app")
struct ConcurrencyTests {
    @Test func statusQueueAndPurgeRunWhileAnotherProcessWritesAndNothingIsLost() async throws {
        try await CLIHarness.with { harness in
            try await harness.seed("cache", [["id": "c1"], ["id": "c2"]])
            let path = harness.newStorePath()
            try await harness.withContext(path) { try await $0.table(JSONObject.self, named: "cache").pull() }
            // The test process plays the app: one local write after another on the same file, until the
            // command runs below are done.
            let progress = WriterProgress()
            let writer = Task {
                try await harness.withContext(path) { context in
                    let todo = try await context.table(JSONObject.self, named: "todo")
                    var index = 0
                    while await !progress.isStopped {
                        _ = try await todo.insert(["id": .string("item\(index)"), "n": .integer(Int64(index))])
                        index += 1
                        await progress.wrote()
                    }
                }
            }
            while await progress.count == 0 { try await Task.sleep(for: .milliseconds(5)) }
            var runs: [CLIRun] = []
            var overlapped = 0
            for _ in 0..<10 {
                let before = await progress.count
                runs.append(try await harness.run(["status", "--json"], store: path))
                runs.append(try await harness.run(["queue", "--json", "--table", "todo"], store: path))
                runs.append(try await harness.run(["purge", "cache", "--force", "--json"], store: path))
                if await progress.count > before { overlapped += 1 }
            }
            await progress.stop()
            try await writer.value
            let writes = await progress.count
            #expect(overlapped > 0, "the app wrote while the commands ran")

            for run in runs {
                #expect(run.status == 0, "\(run.stderr)")
                _ = try run.json
            }
            let status = try await harness.run(["status", "--json"], store: path).json
            let todo = try #require(status.objects("tables").first { $0["name"] == "todo" })
            #expect(todo["rows"] == .integer(Int64(writes)))
            #expect(todo["pendingOperations"] == .integer(Int64(writes)))
            #expect(try await rows("todo", in: path).count == writes)
            #expect(try await rows("cache", in: path).isEmpty)
        }
    }
}

/// How many rows the writing "app" has committed so far, and whether it should stop.
private actor WriterProgress {
    private(set) var count = 0
    private(set) var isStopped = false

    func wrote() {
        count += 1
    }

    func stop() {
        isStopped = true
    }
}
