import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// What a person sees without `--json`: tables with a header row, one-line errors that say what to do.
@Suite("synctables text output")
struct TextOutputTests {
    @Test func queuePrintsAHeaderRowAlignedColumnsAndNoTrailingSpaces() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.withContext(path) { context in
                let todo = try await context.table(JSONObject.self, named: "todo")
                _ = try await todo.insert(["id": "t1", "text": "a"])
                _ = try await todo.insert(["id": "a-much-longer-id", "text": "b"])
            }

            let run = try await harness.run(["queue"], store: path)

            #expect(run.status == 0, "\(run.stderr)")
            let lines = run.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == 3, "\(run.stdout)")
            #expect(
                lines.first?.split(separator: " ", omittingEmptySubsequences: true) == [
                    "SEQUENCE", "KIND", "TABLE", "ITEM", "ID", "STATE", "ATTEMPTS",
                ])
            #expect(lines.allSatisfy { !$0.hasSuffix(" ") }, "\(lines)")
            // Columns line up: each row's item id starts where the header's ITEM ID does.
            let column = try #require(lines.first?.range(of: "ITEM ID")).lowerBound.utf16Offset(in: lines[0])
            #expect(lines[1].dropFirst(column).hasPrefix("t1 "))
            #expect(lines[2].dropFirst(column).hasPrefix("a-much-longer-id "))
        }
    }

    @Test func errorsListPrintsAHeaderRowAndNoEmptyTrailingColumn() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.makeConflict(in: path)

            let run = try await harness.run(["errors", "list"], store: path)

            #expect(run.status == 0, "\(run.stderr)")
            let lines = run.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == 2, "\(run.stdout)")
            #expect(lines.first?.hasPrefix("ID ") == true, "\(lines)")
            #expect(lines.first?.contains("TABLE") == true && lines.first?.contains("STATUS") == true)
            #expect(lines.allSatisfy { !$0.hasSuffix(" ") && !$0.hasSuffix("\t") }, "\(lines)")
            // A MESSAGE column is shown only when some error has a message.
            let header = try #require(lines.first), row = try #require(lines.last)
            #expect(!(header.hasSuffix("MESSAGE") && row.hasSuffix("HTTP 412")), "\(lines)")
            #expect(lines.last?.contains("todo") == true && lines.last?.contains("update") == true)
        }
    }

    @Test func olderThanWithoutAUnitIsRefusedWithTheAcceptedUnits() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.withContext(path) { _ in }

            let run = try await harness.run(["purge", "--stale", "--older-than", "30"], store: path)

            #expect(run.status == 64)
            #expect(run.stderrLines.count == 1, "\(run.stderr)")
            let line = try #require(run.stderrLines.first)
            for unit in ["s (seconds)", "m (minutes)", "h (hours)", "d (days)", "w (weeks)"] {
                #expect(line.contains(unit), "\(line)")
            }
        }
    }

    @Test func anUnknownSubcommandIsCalledAnUnknownSubcommand() async throws {
        let run = try await SynctablesExecutable.run(["frobnicate", "--store", "app.sqlite"])

        #expect(run.status == 64)
        #expect(run.stderrLines == ["synctables: error: unknown subcommand 'frobnicate' (see 'synctables --help')"])
    }

    @Test func aPushToAServerThatIsDownPrintsOneErrorLineAndNoStrayEmptyLine() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.withContext(path) { context in
                _ = try await context.table(JSONObject.self, named: "todo").insert(["id": "a"])
            }

            // A port nothing listens on: the harness's server stopped, or one that was never there.
            let run = try await SynctablesExecutable.run([
                "push", "--store", path, "--server", "http://127.0.0.1:9",
            ])

            #expect(run.status == 3, "\(run.stderr)")
            #expect(run.stdout.isEmpty, "stdout: \(run.stdout.debugDescription)")
            #expect(run.stderrLines.count == 1, "\(run.stderr)")
            #expect(!run.stderr.contains(".."), "\(run.stderr)")
        }
    }

    @Test func errorMessagesNeverEndASentenceWithTwoPeriods() async throws {
        try await CLIHarness.with { harness in
            let notADatabase = harness.directory.appendingPathComponent("not-a-database.sqlite")
            try Data(repeating: 0x41, count: 5000).write(to: notADatabase)
            let path = harness.newStorePath()
            try await harness.withContext(path) { _ in }

            let runs = [
                try await harness.run(["status"], store: notADatabase.path),
                try await harness.run(["pull", "todo", "--filter", "complete eq"], store: path, server: true),
                try await harness.run(["purge", "bad name"], store: path),
            ]

            for run in runs {
                #expect(run.status != 0)
                #expect(!run.stderr.contains(".."), "\(run.stderr)")
                #expect(run.stderrLines.count == 1, "\(run.stderr)")
            }
        }
    }
}
