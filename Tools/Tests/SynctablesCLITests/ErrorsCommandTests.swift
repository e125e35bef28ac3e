import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("synctables errors")
struct ErrorsCommandTests {
    @Test func errorsJsonListsAStoredConflictWithStatusItemIdAndTheServersItem() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.makeConflict(in: path)

            let run = try await harness.run(["errors", "--json"], store: path)

            #expect(run.status == 0, "\(run.stderr)")
            let errors = try run.json.objects("errors")
            #expect(errors.count == 1)
            let error = try #require(errors.first)
            #expect(error["table"] == "todo" && error["itemId"] == "a" && error["kind"] == "update")
            #expect(error["status"] == 412 && error["conflict"] == true)
            #expect(error["serverItem"]?.objectValue?["text"] == "theirs")
            #expect(error["clientItem"]?.objectValue?["text"] == "mine")
        }
    }

    @Test func errorsResolveTakeServerStoresTheServersItemAndClearsTheError() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.makeConflict(in: path)
            let id = try await firstErrorId(harness, path)

            let run = try await harness.run(["errors", "resolve", id, "--take-server", "--json"], store: path)

            #expect(run.status == 0, "\(run.stderr)")
            #expect(try run.json["resolution"] == "takeServer")
            #expect(try await rows("todo", in: path).first?["text"] == "theirs")
            let status = try await harness.run(["status", "--json"], store: path).json
            #expect(status["pendingOperations"] == 0 && status["errors"] == 0)
        }
    }

    @Test func errorsResolveRetryKeepsTheLocalChangeSoTheNextPushOverwritesTheServer() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.makeConflict(in: path)
            let id = try await firstErrorId(harness, path)

            let resolve = try await harness.run(["errors", "resolve", id, "--retry"], store: path)
            let push = try await harness.run(["push", "--json"], store: path, server: true)

            #expect(resolve.status == 0, "\(resolve.stderr)")
            #expect(push.status == 0, "\(push.stderr)")
            #expect(try push.json["pushedOperations"] == 1)
            try await harness.withContext(harness.newStorePath("check")) { context in
                let todo = try await context.table(JSONObject.self, named: "todo")
                try await todo.pull()
                #expect(try await todo.lookup(id: "a")?["text"] == "mine")
            }
        }
    }

    @Test func errorsResolveDiscardDropsTheOperationAndTheLocalRow() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.makeConflict(in: path)
            let id = try await firstErrorId(harness, path)

            let run = try await harness.run(["errors", "resolve", id, "--discard"], store: path)

            #expect(run.status == 0, "\(run.stderr)")
            #expect(try await rows("todo", in: path).isEmpty)
            #expect(try await harness.run(["queue", "--json"], store: path).json["operations"] == .array([]))
        }
    }

    @Test func errorsResolveWithAnUnknownIdOrNoResolutionFailsAndChangesNothing() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.makeConflict(in: path)

            let unknown = try await harness.run(["errors", "resolve", "nope", "--discard"], store: path)
            let missing = try await harness.run(["errors", "resolve", "nope"], store: path)

            #expect(unknown.status == 12 && unknown.stderrLines.count == 1)
            #expect(
                try await harness.run(["errors", "resolve", "nope", "--discard", "--json"], store: path).json[
                    "error"]?.objectValue?["kind"] == "errorNotFound")
            #expect(unknown.stderr.contains("no push error has id 'nope'"))
            #expect(missing.status == 64 && missing.stderrLines.count == 1)
            #expect(try await rows("todo", in: path).first?["text"] == "mine")
        }
    }
}

@Suite("synctables errors ids")
struct ErrorIdTests {
    @Test func anErrorIdStillResolvesAfterTheNextPushFailsTheOperationAgain() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.makeConflict(in: path)
            let id = try await firstErrorId(harness, path)

            let push = try await harness.run(["push", "--json"], store: path, server: true)
            let afterPush = try await firstErrorId(harness, path)
            let resolve = try await harness.run(["errors", "resolve", id, "--discard"], store: path)

            #expect(push.status == 2, "\(push.stderr)")
            #expect(afterPush == id)
            #expect(resolve.status == 0, "\(resolve.stderr)")
            #expect(try await harness.run(["errors", "--json"], store: path).json.objects("errors").isEmpty)
        }
    }
}

/// The id of the first push error `synctables errors --json` lists.
private func firstErrorId(_ harness: CLIHarness, _ path: String) async throws -> String {
    let errors = try await harness.run(["errors", "--json"], store: path).json.objects("errors")
    return try #require(errors.first?["id"]?.stringValue)
}
