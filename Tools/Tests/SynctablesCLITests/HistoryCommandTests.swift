import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("synctables history")
struct HistoryCommandTests {
    @Test func historyJsonListsWhatBecameOfEachOperationNewestFirst() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.controls.addFault(
                FaultRule(method: "POST", path: "/tables/todo", occurrence: 2, action: .respond(status: 422)))
            try await harness.withContext(path) { context in
                let todo = try await context.table(JSONObject.self, named: "todo")
                for id in ["a", "b", "c"] { _ = try await todo.insert(["id": .string(id), "text": "x"]) }
            }
            let push = try await harness.run(["push"], store: path, server: true)
            #expect(push.status == 2, "\(push.stderr)")

            let run = try await harness.run(["history", "--json"], store: path)

            #expect(run.status == 0, "\(run.stderr)")
            let entries = try run.json.objects("entries")
            #expect(entries.map { $0["itemId"] } == ["c", "b", "a"])
            #expect(entries.map { $0["outcome"] } == ["pushed", "failed", "pushed"])
            #expect(entries.map { $0["sequence"] } == [3, 2, 1])
            #expect(entries[1]["status"] == 422 && entries[1]["kind"] == "insert" && entries[1]["attempts"] == 1)
            #expect(entries[0]["status"] == .null && entries[0]["table"] == "todo")
            #expect(
                entries.allSatisfy { $0["operationId"]?.stringValue != nil && $0["recordedAt"]?.stringValue != nil })
        }
    }

    @Test func historyTableAndLimitNarrowTheListAndTextIsOneLinePerEntry() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.withContext(path) { context in
                _ = try await context.table(JSONObject.self, named: "todo").insert(["id": "t1", "text": "a"])
                _ = try await context.table(JSONObject.self, named: "note").insert(["id": "n1", "text": "b"])
                _ = try await context.table(JSONObject.self, named: "note").insert(["id": "n2", "text": "c"])
            }
            #expect(try await harness.run(["push"], store: path, server: true).status == 0)

            let notes = try await harness.run(["history", "--table", "note", "--limit", "1", "--json"], store: path)
            let text = try await harness.run(["history"], store: path)

            #expect(try notes.json.objects("entries").map { $0["itemId"] } == ["n2"])
            #expect(text.status == 0, "\(text.stderr)")
            let lines = text.stdout.split(separator: "\n")
            #expect(lines.count == 4, "a header and three entries: \(text.stdout)")
            #expect(lines.dropFirst().allSatisfy { $0.contains("pushed") && $0.contains("insert") })
        }
    }

    @Test func anEmptyHistorySaysSoAndAMisspelledTableOrBadLimitExits64() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.withContext(path) { context in
                _ = try await context.table(JSONObject.self, named: "todo")
            }

            let empty = try await harness.run(["history"], store: path)
            let misspelled = try await harness.run(["history", "--table", "tood"], store: path)
            let badLimit = try await harness.run(["history", "--limit", "0"], store: path)

            #expect(empty.status == 0 && empty.stdout == "no history\n")
            #expect(misspelled.status == 64 && misspelled.stderr.contains("no table 'tood'"))
            #expect(badLimit.status == 64 && badLimit.stderr.contains("--limit"))
        }
    }

    @Test func processesRecordingHistoryInOneStoreNumberTheirEntriesInOneSequence() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.withContext(path) { context in
                _ = try await context.table(JSONObject.self, named: "todo")
            }
            let prefixes = ["p", "q", "r"]

            let runs = try await withThrowingTaskGroup(of: CLIRun.self) { group in
                for prefix in prefixes {
                    group.addTask {
                        try await StoreWriterProcess.discard(path: path, table: "todo", prefix: prefix, count: 30)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            for run in runs { #expect(run.status == 0, "\(run.stderr)") }
            let entries = try await harness.run(["history", "--json"], store: path).json.objects("entries")
            #expect(entries.compactMap { $0["sequence"]?.int64Value } == (1...90).reversed().map { Int64($0) })
            for prefix in prefixes {
                let ids = entries.compactMap { $0["itemId"]?.stringValue }.filter { $0.hasPrefix("\(prefix)-") }
                #expect(Set(ids) == Set((0..<30).map { "\(prefix)-\($0)" }))
            }
            #expect(entries.allSatisfy { $0["outcome"] == "discarded" })
            #expect(try await harness.run(["queue", "--json"], store: path).json["operations"] == .array([]))
        }
    }
}

@Suite("synctables history of merged conflicts")
struct MergedHistoryCommandTests {
    /// `synctables push` follows the rules the app stored with the table, and `history` tells what became of
    /// each field.
    @Test func aMergeTheCLIsPushMadeIsListedFieldByField() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.seed("todo", [["id": "a", "text": "milk", "quantity": 9]])
            try await harness.withContext(path) { context in
                try await context.setRules(SyncRules(fieldRules: ["quantity": .counter]), forTable: "todo")
                let todo = try await context.table(JSONObject.self, named: "todo")
                try await todo.pull()
                var item = try #require(try await todo.lookup(id: "a"))
                item["quantity"] = 7
                try await todo.update(item)
            }
            try await harness.withContext(harness.newStorePath("other")) { other in
                let todo = try await other.table(JSONObject.self, named: "todo")
                try await todo.pull()
                var item = try #require(try await todo.lookup(id: "a"))
                (item["text"], item["quantity"]) = ("oat milk", 10)
                try await todo.update(item)
                try await other.push()
            }
            #expect(try await harness.run(["push"], store: path, server: true).status == 0)

            let json = try await harness.run(["history", "--json"], store: path)
            let text = try await harness.run(["history"], store: path)

            let resolved = try #require(try json.json.objects("entries").first { $0["outcome"] == "resolved" })
            #expect(resolved["conflict"] == "updateUpdate" && resolved["conflictRule"] == "merge")
            #expect(
                resolved["merge"]
                    == [
                        ["field": "quantity", "change": "both", "rule": "counter", "summary": "10 + (−2)"],
                        ["field": "text", "change": "server", "rule": nil, "summary": "server's"],
                    ])
            #expect(text.stdout.contains("update/update: merged per field: quantity: 10 + (−2); text: server's"))
            #expect(try await rows("todo", in: path).first?["quantity"] == 8)
        }
    }
}
