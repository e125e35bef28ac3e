import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("synctables status")
struct StatusCommandTests {
    @Test func statusJsonReportsEachTablesRowsQueueErrorsTokensAndLastPulls() async throws {
        try await CLIHarness.with { harness in
            try await harness.seed("todo", [["id": "a", "text": "one"], ["id": "b", "text": "two"]])
            let path = harness.newStorePath()
            try await harness.withContext(path) { context in
                let todo = try await context.table(JSONObject.self, named: "todo")
                try await todo.pull(queryId: "all")
                try await todo.pull()
                let notes = try await context.table(JSONObject.self, named: "note")
                _ = try await notes.insert(["id": "n1", "text": "local"])
            }

            let run = try await harness.run(["status", "--json"], store: path)

            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.isEmpty)
            let json = try run.json
            #expect(json["pendingOperations"] == 1)
            #expect(json["errors"] == 0)
            let store = try #require(json["store"]?.objectValue)
            #expect(store["schemaVersion"] == .integer(Int64(SystemSchema.currentVersion)))
            #expect((store["fileBytes"]?.int64Value ?? 0) > 0)
            #expect(store["path"] == .string(path))
            let tables = json.objects("tables")
            try #require(tables.count == 2)
            #expect(tables.map { $0["name"] } == ["note", "todo"])
            #expect(tables[0]["rows"] == 1 && tables[0]["pendingOperations"] == 1 && tables[0]["lastPull"] == .null)
            #expect(tables[0]["pulls"] == .array([]))
            #expect(tables[1]["rows"] == 2 && tables[1]["pendingOperations"] == 0)
            let pulls = tables[1].objects("pulls")
            try #require(pulls.count == 2)
            #expect(pulls.map { $0["queryId"] } == [.null, "all"])
            #expect(pulls[0]["deltaToken"] == .null)
            let token = try #require(pulls[1]["deltaToken"]?.stringValue.flatMap(Timestamp.init(parsing:)))
            let newest = try await rows("todo", in: path).compactMap {
                $0["updatedAt"]?.stringValue.flatMap(Timestamp.init(parsing:))
            }.max()
            #expect(token == newest)
            for pull in pulls {
                let lastPull = try #require(pull["lastPull"]?.stringValue.flatMap(Timestamp.init(parsing:)))
                #expect(abs(lastPull.date.timeIntervalSinceNow) < 60)
            }
            #expect(tables[1]["lastPull"] != .null)
        }
    }

    @Test func statusCountsTheOperationsWaitingForAParentPerTable() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.makeDeadParentWithChildren(in: path)

            let json = try await harness.run(["status", "--json"], store: path)
            let text = try await harness.run(["status"], store: path)

            #expect(try json.json["heldOperations"] == 2)
            let tables = try json.json.objects("tables")
            #expect(tables.first { $0["name"] == "FolderNote" }?["heldOperations"] == 2)
            #expect(tables.first { $0["name"] == "Folder" }?["heldOperations"] == 0)
            #expect(text.stdout.contains("3 pending operation(s) (2 waiting for a parent)"), "\(text.stdout)")
            #expect(
                text.stdout.contains("table FolderNote: 2 row(s), 2 pending (2 waiting for a parent)"), "\(text.stdout)"
            )
        }
    }

    @Test func statusWithoutJsonPrintsOneLinePerTableAndQueryId() async throws {
        try await CLIHarness.with { harness in
            try await harness.seed("todo", [["id": "a"]])
            let path = harness.newStorePath()
            try await harness.withContext(path) { context in
                try await context.table(JSONObject.self, named: "todo").pull(queryId: "open")
            }

            let run = try await harness.run(["status"], store: path)

            #expect(run.status == 0)
            #expect(run.stdout.contains("table todo: 1 row(s), 0 pending, 0 error(s), last pull 20"))
            #expect(run.stdout.contains("query id 'open': token 20"))
        }
    }
}
