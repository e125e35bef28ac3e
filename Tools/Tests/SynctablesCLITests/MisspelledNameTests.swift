import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// A misspelled table or column is a usage error (exit 64) naming it, never an empty result, a purge of
/// the wrong rows or a table left behind.
@Suite("synctables misspelled names")
struct MisspelledNameTests {
    /// A store holding pulled `todo` rows `a` (complete) and `b` (not complete).
    private func pulledStore(_ harness: CLIHarness) async throws -> String {
        try await harness.seed("todo", [["id": "a", "complete": true], ["id": "b", "complete": false]])
        let path = harness.newStorePath()
        try await harness.withContext(path) { try await $0.table(JSONObject.self, named: "todo").pull() }
        return path
    }

    @Test func purgeFilterOnAMisspelledColumnExits64NamingTheNearestAndPurgesNothing() async throws {
        try await CLIHarness.with { harness in
            let path = try await pulledStore(harness)

            let run = try await harness.run(
                ["purge", "todo", "--force", "--filter", "not (compelte eq true)"], store: path)
            let dryRun = try await harness.run(
                ["purge", "todo", "--force", "--dry-run", "--filter", "compelte eq true"], store: path)

            #expect(run.status == 64 && dryRun.status == 64, "\(run.stderr) \(dryRun.stderr)")
            #expect(run.stderr.contains("Table 'todo' has no column \"compelte\""), "\(run.stderr)")
            #expect(run.stderr.contains("Did you mean \"complete\"?"), "\(run.stderr)")
            #expect(try await rows("todo", in: path).map { $0["id"] } == ["a", "b"])
        }
    }

    @Test func pullFilterOnAMisspelledColumnExits64NamingTheNearestAndSavesNoToken() async throws {
        try await CLIHarness.with { harness in
            let path = try await pulledStore(harness)

            let run = try await harness.run(
                ["pull", "todo", "--query-id", "open", "--filter", "compelte eq false"], store: path, server: true)
            let status = try await harness.run(["status", "--json"], store: path)

            #expect(run.status == 64, "\(run.stderr)")
            #expect(run.stderr.contains("Table 'todo' has no column \"compelte\""), "\(run.stderr)")
            #expect(run.stderr.contains("Did you mean \"complete\"?"), "\(run.stderr)")
            let pulls = try #require(try status.json["tables"]?.arrayValue?.first?.objectValue?["pulls"]?.arrayValue)
            #expect(!pulls.contains { $0.objectValue?["queryId"]?.stringValue == "open" })
        }
    }

    @Test func queueTableWithATableTheStoreLacksExits64InsteadOfListingNothing() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.withContext(path) { context in
                _ = try await context.table(JSONObject.self, named: "todo").insert(["id": "t1"])
            }

            let misspelled = try await harness.run(["queue", "--table", "tood"], store: path)
            let invalid = try await harness.run(["queue", "--table", "to do"], store: path)
            let otherCase = try await harness.run(["queue", "--json", "--table", "TODO"], store: path)

            #expect(misspelled.status == 64 && misspelled.stderr.contains("no table 'tood' in the store"))
            #expect(
                invalid.status == 64 && invalid.stderr.contains("Invalid table name \"to do\""), "\(invalid.stderr)")
            #expect(otherCase.status == 0, "\(otherCase.stderr)")
            #expect(try otherCase.json.objects("operations").map { $0["itemId"] } == ["t1"])
        }
    }

    @Test func pullOfATableNobodyHasExits64AndLeavesNoTableBehind() async throws {
        try await CLIHarness.with { harness in
            let path = try await pulledStore(harness)

            let misspelled = try await harness.run(["pull", "tood"], store: path, server: true)
            let invalid = try await harness.run(["pull", "to-do"], store: path, server: true)
            let status = try await harness.run(["status", "--json"], store: path)

            #expect(misspelled.status == 64, "\(misspelled.stderr)")
            #expect(misspelled.stderr.contains("no table 'tood' in the store, and the server has no records in it"))
            #expect(
                invalid.status == 64 && invalid.stderr.contains("Invalid table name \"to-do\""), "\(invalid.stderr)")
            let tables = try #require(try status.json["tables"]?.arrayValue)
            #expect(tables.compactMap { $0.objectValue?["name"]?.stringValue } == ["todo"])
        }
    }
}
