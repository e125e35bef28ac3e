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

    @Test func queueShowsWhichParentAHeldOperationWaitsForInTextAndJson() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.makeDeadParentWithChildren(in: path)

            let text = try await harness.run(["queue"], store: path)
            let json = try await harness.run(["queue", "--json"], store: path)

            #expect(text.status == 0, "\(text.stderr)")
            let lines = text.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasSuffix("WAITING FOR") == true, "\(text.stdout)")
            #expect(lines.filter { $0.hasSuffix("Folder 'f1' (dead)") }.count == 2, "\(text.stdout)")
            let operations = try json.json.objects("operations")
            #expect(operations.map { $0["itemId"] } == ["f1", "n1", "n2"])
            #expect(operations.first?["waitingFor"] == .null)
            let waiting = operations.last?["waitingFor"]?.objectValue
            #expect(waiting?["table"] == "Folder" && waiting?["itemId"] == "f1" && waiting?["property"] == "folderId")
            #expect(waiting?["parentState"] == "dead" && waiting?["operationId"] == operations.first?["operationId"])
        }
    }
}
