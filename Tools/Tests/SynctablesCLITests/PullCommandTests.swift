import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("synctables pull")
struct PullCommandTests {
    @Test func pullFilterSendsTheODataFilterAndStoresOnlyTheMatchingRecords() async throws {
        try await CLIHarness.with { harness in
            try await harness.seed(
                "todo",
                [
                    ["id": "a", "text": "Buy milk", "complete": false],
                    ["id": "b", "text": "Buy bread", "complete": true],
                    ["id": "c", "text": "Walk dog", "complete": false],
                ])
            let path = harness.newStorePath()
            try await harness.withContext(path) { _ in }

            let run = try await harness.run(
                [
                    "pull", "todo", "--filter", "complete eq false and startswith(text, 'Buy')", "--page-size", "1",
                    "--json",
                ],
                store: path, server: true)

            #expect(run.status == 0, "\(run.stderr)")
            let json = try run.json
            #expect(json["table"] == "todo" && json["received"] == 1 && json["upserted"] == 1)
            #expect(json["requests"] == 2)  // one page of one record, then the empty page
            #expect(try await rows("todo", in: path).map { $0["id"] } == ["a"])
            let filters = try await harness.controls.requests().flatMap(\.query).filter { $0.name == "$filter" }
            #expect(filters.first?.value.contains("startswith(text,'Buy')") == true)
        }
    }

    @Test func pullQueryIdIsIncrementalSoTheSecondPullAsksFromTheStoredToken() async throws {
        try await CLIHarness.with { harness in
            try await harness.seed("todo", [["id": "a"], ["id": "b"]])
            let path = harness.newStorePath()
            try await harness.withContext(path) { _ in }

            let first = try await harness.run(
                ["pull", "todo", "--query-id", "all", "--json"], store: path, server: true)
            try await harness.seed("todo", [["id": "c"]])
            await (try harness.controls).clearRequests()
            let second = try await harness.run(
                ["pull", "todo", "--query-id", "all", "--json"], store: path, server: true)

            #expect(first.status == 0 && second.status == 0, "\(first.stderr) \(second.stderr)")
            let firstToken = try #require(try first.json["deltaToken"]?.stringValue.flatMap(Timestamp.init(parsing:)))
            let secondToken = try #require(try second.json["deltaToken"]?.stringValue.flatMap(Timestamp.init(parsing:)))
            #expect(secondToken > firstToken)
            #expect(try second.json["queryId"] == "all")
            // The second pull starts from the first pull's token, not from the beginning.
            let filters = try await harness.controls.requests().flatMap(\.query).filter { $0.name == "$filter" }
            let firstFilter = try #require(filters.first?.value)
            #expect(firstFilter.contains("updatedAt ge datetimeoffset'\(firstToken.iso8601)"), "\(firstFilter)")
            #expect(try await rows("todo", in: path).map { $0["id"] } == ["a", "b", "c"])
        }
    }

    @Test func pullWithAnInvalidFilterTableNameOrPageSizeIsBadUsageAndSendsNothing() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.withContext(path) { _ in }

            let badFilter = try await harness.run(["pull", "todo", "--filter", "text eq"], store: path, server: true)
            let badTable = try await harness.run(["pull", "__operations"], store: path, server: true)
            let badPage = try await harness.run(["pull", "todo", "--page-size", "0"], store: path, server: true)

            for run in [badFilter, badTable, badPage] {
                #expect(run.status == 64, "\(run.stderr)")
                #expect(run.stderrLines.count == 1 && run.stderr.hasPrefix("synctables: error: "))
            }
            #expect(badFilter.stderr.contains("invalid filter"))
            #expect(try await harness.controls.requests().isEmpty)
        }
    }
}

@Suite("synctables pull failures")
struct PullFailureTests {
    @Test func pullExits3WhenTheServerCannotBeReachedAnd4WhenItRefusesTheToken() async throws {
        try await CLIHarness.with(authToken: "s3cret") { harness in
            try await harness.seed("todo", [["id": "a"]])
            let path = harness.newStorePath()
            try await harness.withContext(path) { _ in }
            let closedPort = try await PushCommandTests.closedPortURL()

            let unreachable = try await SynctablesExecutable.run([
                "pull", "todo", "--store", path, "--server", closedPort,
            ])
            let unauthorized = try await harness.run(["pull", "todo", "--json"], store: path, server: true)
            let authorized = try await harness.run(
                ["pull", "todo", "--auth-token", "s3cret", "--json"], store: path, server: true)

            #expect(unreachable.status == 3)
            #expect(unreachable.stderrLines.count == 1)
            #expect(unauthorized.status == 4)
            #expect(try unauthorized.json["error"]?.objectValue?["kind"] == "authentication")
            #expect(authorized.status == 0, "\(authorized.stderr)")
        }
    }
}
