import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("synctables purge")
struct PurgeCommandTests {
    @Test func purgeRefusesATableWithPendingOperationsThenForceRemovesEverything() async throws {
        try await CLIHarness.with { harness in
            let path = try await storeWithPulledRowsAndAPendingInsert(harness)

            let refused = try await harness.run(["purge", "todo", "--json"], store: path)
            let rowsAfterRefusal = try await rows("todo", in: path).count
            let forced = try await harness.run(["purge", "todo", "--force", "--json"], store: path)

            #expect(refused.status == 5)
            #expect(refused.stderrLines.count == 1 && refused.stderr.contains("'todo' (1 pending)"))
            let refusedTable = try #require(try refused.json["tables"]?.arrayValue?.first?.objectValue)
            #expect(refusedTable["refused"] == true && refusedTable["purged"] == false)
            #expect(rowsAfterRefusal == 3)
            #expect(forced.status == 0, "\(forced.stderr)")
            let table = try #require(try forced.json["tables"]?.arrayValue?.first?.objectValue)
            #expect(table["purged"] == true && table["rows"] == 3 && table["operations"] == 1 && table["tokens"] == 1)
            #expect(try await rows("todo", in: path).isEmpty)
            #expect(try await harness.run(["queue", "--json"], store: path).json["operations"] == .array([]))
        }
    }

    @Test func purgeFilterRemovesOnlyTheMatchingRows() async throws {
        try await CLIHarness.with { harness in
            try await harness.seed("todo", [["id": "a", "complete": true], ["id": "b", "complete": false]])
            let path = harness.newStorePath()
            try await harness.withContext(path) { try await $0.table(JSONObject.self, named: "todo").pull() }

            let run = try await harness.run(["purge", "todo", "--filter", "complete eq true", "--json"], store: path)

            #expect(run.status == 0, "\(run.stderr)")
            #expect(try run.json["tables"]?.arrayValue?.first?.objectValue?["rows"] == 1)
            #expect(try await rows("todo", in: path).map { $0["id"] } == ["b"])
        }
    }

    @Test func purgeDryRunReportsWhatAForcedPurgeWouldRemoveAndChangesNothing() async throws {
        try await CLIHarness.with { harness in
            let path = try await storeWithPulledRowsAndAPendingInsert(harness)
            let before = try await harness.run(["status", "--json"], store: path).json

            let dry = try await harness.run(["purge", "todo", "--force", "--dry-run", "--json"], store: path)
            let dryUnforced = try await harness.run(["purge", "todo", "--dry-run", "--json"], store: path)

            #expect(dry.status == 0, "\(dry.stderr)")
            let table = try #require(try dry.json["tables"]?.arrayValue?.first?.objectValue)
            #expect(try dry.json["dryRun"] == true)
            #expect(table["purged"] == false && table["rows"] == 3 && table["operations"] == 1 && table["tokens"] == 1)
            #expect(dryUnforced.status == 5, "the dry run has the exit code the real run would have")
            let after = try await harness.run(["status", "--json"], store: path).json
            #expect(before["tables"] == after["tables"], "rows, queue and tokens are unchanged")
            #expect(before["pendingOperations"] == after["pendingOperations"])
            #expect(try await rows("todo", in: path).count == 3)
        }
    }

    @Test func purgeStaleSelectsExactlyTheTablesLastPulledBeforeOlderThan() async throws {
        try await CLIHarness.with { harness in
            for table in ["old", "mixed", "fresh"] { try await harness.seed(table, [["id": "x"]]) }
            let path = harness.newStorePath()
            try await harness.withContext(path) { context in
                try await context.table(JSONObject.self, named: "old").pull(queryId: "q")
                try await context.table(JSONObject.self, named: "mixed").pull(queryId: "q1")
                _ = try await context.table(JSONObject.self, named: "local").insert(["id": "l"])
                try await context.table(JSONObject.self, named: "fresh").pull()
                // An old pull under one query id and a recent one under another: the table is fresh.
                try await context.table(JSONObject.self, named: "mixed").pull(queryId: "q2")
            }
            try await backdateLastPull(["old|q", "mixed|q1"], days: 40, in: path)

            let dry = try await harness.run(
                ["purge", "--stale", "--older-than", "30d", "--dry-run", "--json"], store: path)
            let run = try await harness.run(["purge", "--stale", "--older-than", "30d", "--json"], store: path)

            #expect(dry.status == 0 && run.status == 0, "\(dry.stderr) \(run.stderr)")
            let names = try #require(try run.json["tables"]?.arrayValue?.compactMap { $0.objectValue?["table"] })
            #expect(names == ["old"])
            #expect(try dry.json["tables"]?.arrayValue?.compactMap { $0.objectValue?["table"] } == names)
            #expect(try await rows("old", in: path).isEmpty)
            #expect(try await rows("mixed", in: path).count == 1)
            #expect(try await rows("fresh", in: path).count == 1)
            #expect(try await rows("local", in: path).count == 1)
        }
    }

    @Test func purgeStalePurgesCleanStaleTablesAndRefusesTheOnesWithPendingOperations() async throws {
        try await CLIHarness.with { harness in
            try await harness.seed("clean", [["id": "c"]])
            try await harness.seed("dirty", [["id": "d"]])
            let path = harness.newStorePath()
            try await harness.withContext(path) { context in
                try await context.table(JSONObject.self, named: "clean").pull()
                let dirty = try await context.table(JSONObject.self, named: "dirty")
                try await dirty.pull()
                _ = try await dirty.insert(["id": "mine"])
            }
            try await backdateLastPull(["clean|", "dirty|"], days: 2, in: path)

            let run = try await harness.run(["purge", "--stale", "--older-than", "24h", "--json"], store: path)

            #expect(run.status == 5)
            #expect(run.stderrLines.count == 1 && run.stderr.contains("'dirty'"))
            #expect(try await rows("clean", in: path).isEmpty)
            #expect(try await rows("dirty", in: path).count == 2)
        }
    }

    @Test func purgeRefusesMissingOrUnknownTablesBadDurationsAndStaleWithoutOlderThan() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.withContext(path) {
                _ = try await $0.table(JSONObject.self, named: "todo").insert(["id": "a"])
            }

            let cases: [[String]] = [
                ["purge"], ["purge", "nope"], ["purge", "--stale"], ["purge", "--stale", "--older-than", "30x"],
                ["purge", "todo", "--stale", "--older-than", "1d"], ["purge", "todo", "--older-than", "1d"],
                ["purge", "todo", "--filter", "(", "--force"],
            ]
            for arguments in cases {
                let run = try await harness.run(arguments, store: path)
                #expect(run.status == 64, "\(arguments): \(run.stderr)")
                #expect(run.stderrLines.count == 1, "\(arguments): \(run.stderr)")
            }
            #expect(try await rows("todo", in: path).count == 1)
        }
    }
}

/// A new store holding `todo` rows "a" and "b" pulled under the query id "all", plus a local insert "local"
/// still queued.
private func storeWithPulledRowsAndAPendingInsert(_ harness: CLIHarness) async throws -> String {
    try await harness.seed("todo", [["id": "a"], ["id": "b"]])
    let path = harness.newStorePath()
    try await harness.withContext(path) { context in
        let todo = try await context.table(JSONObject.self, named: "todo")
        try await todo.pull(queryId: "all")
        _ = try await todo.insert(["id": "local"])
    }
    return path
}

/// Moves recorded pull times (`lastPull|<table>|<queryId>` in `__config`) into the past, as if those pulls
/// had happened `days` ago.
func backdateLastPull(_ tableAndQueryIds: [String], days: Int, in path: String) async throws {
    let store = try SQLiteStore(path: path)
    let past = Timestamp(date: Date().addingTimeInterval(-Double(days) * 86_400)).iso8601
    try await store.write { transaction in
        for key in tableAndQueryIds {
            #expect(try transaction.lookup(table: "__config", id: "lastPull|\(key)") != nil, "\(key) was pulled")
            try transaction.upsert(
                table: "__config", items: [["id": .string("lastPull|\(key)"), "value": .string(past)]])
        }
    }
    try await store.close()
}
