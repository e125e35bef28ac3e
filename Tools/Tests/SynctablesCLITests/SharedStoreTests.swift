import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// What issue 17 saw when an app and `synctables` (or two apps) used one store file: each case runs real
/// processes on one file.
@Suite("one store file, several processes")
struct SharedStoreTests {
    /// Server rows with a property the app has never stored, long enough to be kept in its column only.
    private static let notedRows: [JSONObject] = [
        ["id": "n1", "text": "first", "note": "a note long enough for its own column"],
        ["id": "n2", "text": "second", "note": "another note long enough for its own column"],
    ]

    @Test func theAppReadsRowsASynctablesPullStoredWithAPropertyTheAppHadNeverSeen() async throws {
        try await CLIHarness.with { harness in
            try await harness.seed("todo", [["id": "a", "text": "Buy milk"]])
            let path = harness.newStorePath()
            try await harness.withContext(path) { context in
                // Given an app that has read the table,
                let todo = try await context.table(JSONObject.self, named: "todo")
                try await todo.pull()
                #expect(try await todo.query().fetchAll().count == 1)

                // when synctables pulls rows with a new property,
                try await harness.seed("todo", Self.notedRows)
                let pull = try await harness.run(["pull", "todo", "--json"], store: path, server: true)
                #expect(pull.status == 0, "\(pull.stderr)")

                // then the app reads them, by query and by id.
                let all = try await todo.query().order(Column("id")).fetchAll()
                #expect(all.map { $0["id"] } == ["a", "n1", "n2"])
                #expect(all.last?["note"] == "another note long enough for its own column")
                #expect(try await todo.lookup(id: "n1")?["note"] == "a note long enough for its own column")
                let filtered = try await todo.query().filter(Column("note").hasPrefix("another")).fetchAll()
                #expect(filtered.map { $0["id"] } == ["n2"])
            }
        }
    }

    @Test func theAppWritesAPropertyAfterASynctablesPullAddedItsColumn() async throws {
        try await CLIHarness.with { harness in
            try await harness.seed("todo", [["id": "a", "text": "Buy milk"]])
            let path = harness.newStorePath()
            try await harness.withContext(path) { context in
                // Given an app that has written to the table,
                let todo = try await context.table(JSONObject.self, named: "todo")
                try await todo.pull()
                _ = try await todo.insert(["id": "b", "text": "Walk dog"])

                // when synctables pulls rows that add a column,
                try await harness.seed("todo", Self.notedRows)
                let pull = try await harness.run(["pull", "todo", "--json"], store: path, server: true)
                #expect(pull.status == 0, "\(pull.stderr)")

                // then the app writes that property, new and updated rows alike.
                _ = try await todo.insert(["id": "c", "text": "Call mum", "note": "a note the app wrote itself"])
                try await todo.update(["id": "b", "text": "Walk dog", "note": "the app's second long note"])
                #expect(try await todo.lookup(id: "c")?["note"] == "a note the app wrote itself")
                #expect(try await todo.lookup(id: "b")?["note"] == "the app's second long note")
            }
            let stored = try await rows("todo", in: path)
            #expect(stored.map { $0["id"] } == ["a", "b", "c", "n1", "n2"])
        }
    }

    @Test func twoWriterProcessesInsertIntoOneFileAndEveryRowAndOperationIsThereOnce() async throws {
        let count = 300
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.withContext(path) { _ in }

            async let first = StoreWriterProcess.write(path: path, table: "todo", prefix: "p1", count: count, seed: 1)
            async let second = StoreWriterProcess.write(path: path, table: "todo", prefix: "p2", count: count, seed: 2)
            let runs = try await [first, second]

            for run in runs { #expect(run.status == 0, "\(run.stderr)") }
            try await SharedStoreCheck.expectConsistent(path, table: "todo", prefixes: ["p1", "p2"], count: count)
        }
    }
}
