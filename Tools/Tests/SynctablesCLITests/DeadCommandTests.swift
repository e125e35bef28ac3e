import Foundation
import Logging
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("synctables dead")
struct DeadCommandTests {
    @Test func deadListJsonShowsEachDeadOperationWithItsStatusAndAttempts() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.makeDeadOperations(["a", "b"], in: path)

            let run = try await harness.run(["dead", "--json"], store: path)

            #expect(run.status == 0, "\(run.stderr)")
            let operations = try run.json.objects("operations")
            #expect(operations.map { $0["itemId"] } == ["a", "b"])
            #expect(operations.first?["status"] == 422 && operations.first?["kind"] == "update")
            #expect(operations.first?["attempts"]?.arrayValue?.count == 1)
        }
    }

    @Test func deadListShowsTheChildrenADeadInsertHolds() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.makeDeadParentWithChildren(in: path)

            let json = try await harness.run(["dead", "--json"], store: path)
            let text = try await harness.run(["dead"], store: path)

            let children = try #require(try json.json.objects("operations").first?["heldChildren"]?.arrayValue)
            #expect(children.compactMap { $0.objectValue?["itemId"] } == ["n1", "n2"])
            #expect(children.allSatisfy { $0.objectValue?["table"] == "FolderNote" })
            #expect(text.stdout.contains("holds 2 child operation(s) until it is pushed:"), "\(text.stdout)")
            #expect(text.stdout.contains("FolderNote  n1  insert"), "\(text.stdout)")
        }
    }

    @Test func deadDiscardOfAParentWithChildrenIsRefusedUnlessWithChildren() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.makeDeadParentWithChildren(in: path)

            let refused = try await harness.run(["dead", "discard", "--all", "--yes"], store: path)

            #expect(refused.status == 1)
            #expect(refused.stderr.contains("--with-children"), "\(refused.stderr)")
            #expect(try await harness.run(["queue", "--json"], store: path).json.objects("operations").count == 3)

            let run = try await harness.run(
                ["dead", "discard", "--all", "--yes", "--with-children", "--json"], store: path)

            #expect(run.status == 0, "\(run.stderr)")
            #expect(try run.json["count"] == 3)
            #expect(try await harness.run(["queue", "--json"], store: path).json["operations"] == .array([]))
            #expect(try await rows("FolderNote", in: path).isEmpty)
        }
    }

    @Test func deadRetryPutsAnOperationBackInTheQueueAndTheNextPushSendsIt() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.makeDeadOperations(["a", "b"], in: path)
            let id = try await deadOperationIds(harness, path)[0]
            try await harness.controls.clearFaults()

            let retry = try await harness.run(["dead", "retry", id], store: path)
            let push = try await harness.run(["push", "--json"], store: path, server: true)

            #expect(retry.status == 0, "\(retry.stderr)")
            #expect(push.status == 0, "\(push.stderr)")
            #expect(try push.json["pushedOperations"] == 1)
            #expect(try await deadOperationIds(harness, path).count == 1)
        }
    }

    @Test func deadDiscardNeedsYesThenDropsTheOperationsAndTheirLocalRows() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.makeDeadOperations(["a", "b"], in: path)

            let refused = try await harness.run(["dead", "discard", "--all"], store: path)
            #expect(refused.status == 64 && refused.stderr.contains("--yes"))
            #expect(try await deadOperationIds(harness, path).count == 2)

            let run = try await harness.run(["dead", "discard", "--all", "--yes", "--json"], store: path)

            #expect(run.status == 0, "\(run.stderr)")
            #expect(try run.json["count"] == 2)
            #expect(try await rows("todo", in: path).isEmpty)
            #expect(try await harness.run(["queue", "--json"], store: path).json["operations"] == .array([]))
        }
    }

    @Test func deadRevertStoresTheServersCopyAndDropsTheLocalChange() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.makeDeadOperations(["a"], in: path)
            let id = try await deadOperationIds(harness, path)[0]

            let run = try await harness.run(["dead", "revert", id], store: path, server: true)

            #expect(run.status == 0, "\(run.stderr)")
            #expect(try await rows("todo", in: path).first?["text"] == "server")
            #expect(try await deadOperationIds(harness, path).isEmpty)
        }
    }

    @Test func namingAnOperationThatIsNotDeadExits13AndChangesNothing() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.makeDeadOperations(["a"], in: path)
            let dead = try await deadOperationIds(harness, path)

            for command in [["dead", "retry"], ["dead", "discard", "--yes"]] {
                let run = try await harness.run(command + [dead[0], "nope"], store: path)

                #expect(run.status == 13, "\(command): \(run.stderr)")
                #expect(run.stderr.contains("'nope'"), "\(run.stderr)")
                #expect(try await deadOperationIds(harness, path) == dead)
            }
            let revert = try await harness.run(["dead", "revert", "nope"], store: path, server: true)
            #expect(revert.status == 13, "\(revert.stderr)")
        }
    }
}

extension CLIHarness {
    /// Leaves the store at `path` with one dead update per id: the server refuses each with 422, and an
    /// engine cycle dead-letters it. (The faults stay until the test clears them.)
    func makeDeadOperations(_ ids: [String], in path: String) async throws {
        try await seed("todo", ids.map { ["id": .string($0), "text": "server"] })
        try await controls.addFault(
            FaultRule(
                method: "PATCH", path: "/tables/todo/", matchesPrefix: true, occurrence: nil,
                action: .respond(status: 422)))
        try await withContext(path) { context in
            let todo = try await context.table(JSONObject.self, named: "todo")
            try await todo.pull()
            for id in ids {
                var item = try #require(try await todo.lookup(id: id))
                item["text"] = "local"
                try await todo.update(item)
            }
            var quiet = Logger(label: "SyncTables.SyncEngine.tests")
            quiet.logLevel = .error
            let engine = SyncEngine(context: context, definitions: [], clock: ManualSyncClock(), logger: quiet)
            await engine.syncNow()
            #expect(try await context.deadOperations().count == ids.count)
        }
    }
}

private func deadOperationIds(_ harness: CLIHarness, _ path: String) async throws -> [String] {
    let operations = try await harness.run(["dead", "--json"], store: path).json.objects("operations")
    return operations.compactMap { $0["operationId"]?.stringValue }
}
