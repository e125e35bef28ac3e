import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("synctables queue")
struct QueueCommandTests {
    @Test func queueJsonListsPendingOperationsInPushOrderWithKindStateAndAttempts() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.withContext(path) { context in
                let todo = try await context.table(JSONObject.self, named: "todo")
                let note = try await context.table(JSONObject.self, named: "note")
                _ = try await todo.insert(["id": "t1", "text": "a"])
                _ = try await note.insert(["id": "n1", "text": "b"])
                _ = try await todo.insert(["id": "t2", "text": "c"])
                try await todo.delete(id: "t2")  // collapses away: an insert then delete sends nothing
                _ = try await todo.insert(["id": "t3", "text": "d"])
            }

            let run = try await harness.run(["queue", "--json"], store: path)

            #expect(run.status == 0, "\(run.stderr)")
            let operations = try run.json.objects("operations")
            #expect(operations.map { $0["itemId"] } == ["t1", "n1", "t3"])
            #expect(operations.map { $0["table"] } == ["todo", "note", "todo"])
            #expect(operations.allSatisfy { $0["kind"] == "insert" && $0["state"] == "pending" && $0["attempts"] == 0 })
            let sequences = operations.compactMap { $0["sequence"]?.int64Value }
            #expect(sequences == sequences.sorted() && Set(sequences).count == 3)
        }
    }

    @Test func queueTableListsOnlyThatTablesOperations() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.withContext(path) { context in
                _ = try await context.table(JSONObject.self, named: "todo").insert(["id": "t1"])
                _ = try await context.table(JSONObject.self, named: "note").insert(["id": "n1"])
            }

            let run = try await harness.run(["queue", "--json", "--table", "note"], store: path)

            let operations = try run.json.objects("operations")
            #expect(operations.map { $0["itemId"] } == ["n1"])
        }
    }

    @Test func queueShowsAFailedOperationsStateAndAttemptCountAfterARefusedPush() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.makeConflict(in: path)

            let run = try await harness.run(["queue", "--json"], store: path)

            let operations = try run.json.objects("operations")
            #expect(operations.count == 1)
            #expect(operations.first?["kind"] == "update")
            #expect(operations.first?["state"] == "failed")
            #expect(operations.first?["attempts"] == 1)
        }
    }
}
