import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("Samples/Maintenance/nightly-purge.sh")
struct MaintenanceScriptTests {
    private static let script = RepositoryRoot.url.appendingPathComponent("Tools/Samples/Maintenance/nightly-purge.sh")

    @Test func theNightlyScriptPushesTheQueueAndPurgesExactlyTheStaleTables() async throws {
        try await CLIHarness.with { harness in
            try await harness.seed("old", [["id": "o1"], ["id": "o2"]])
            try await harness.seed("fresh", [["id": "f1"]])
            let path = harness.newStorePath()
            try await harness.withContext(path) { context in
                try await context.table(JSONObject.self, named: "old").pull(queryId: "all")
                let fresh = try await context.table(JSONObject.self, named: "fresh")
                try await fresh.pull()
                _ = try await fresh.insert(["id": "f2", "text": "written offline"])
            }
            try await backdateLastPull(["old|all"], days: 40, in: path)
            let workDirectory = harness.directory.appendingPathComponent("work")
            try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)

            let run = try await Self.runScript(
                [path], in: workDirectory,
                environment: ["SYNCTABLES_SERVER": harness.url.absoluteString])

            #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
            #expect(run.stderr.isEmpty, "\(run.stderr)")
            #expect(try await rows("old", in: path).isEmpty)
            #expect(try await rows("fresh", in: path).map { $0["id"] } == ["f1", "f2"])
            let posted = try await harness.controls.requests().filter { $0.method == "POST" }.map(\.path)
            #expect(posted == ["/sync/batch", "/tables/fresh"])  // the push's batch, and its one insert
            let report = try JSONValue(
                parsing: String(contentsOf: workDirectory.appendingPathComponent("purge-report.json"), encoding: .utf8))
            #expect(report.objectValue?["tables"]?.arrayValue?.compactMap { $0.objectValue?["table"] } == ["old"])
        }
    }

    @Test func theMaintenanceArticleShowsTheScriptVerbatim() throws {
        let article = try String(
            contentsOf: RepositoryRoot.url.appendingPathComponent(maintenanceArticle), encoding: .utf8)
        let script = try String(contentsOf: Self.script, encoding: .utf8)

        #expect(article.contains("## A nightly maintenance script"))
        #expect(article.contains("```sh\n" + script + "```"))
    }

    private static func runScript(_ arguments: [String], in directory: URL, environment: [String: String])
        async throws -> CLIRun
    {
        var environment = environment
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        environment["PATH"] = SynctablesExecutable.directory.path + ":" + path
        return try await SynctablesExecutable.runProcess(
            URL(fileURLWithPath: "/bin/sh"), arguments: [script.path] + arguments, environment: environment,
            currentDirectory: directory)
    }
}

/// The DocC article that documents `synctables` for maintenance scripts, relative to the package root.
let maintenanceArticle = "Sources/SyncTables/Documentation.docc/PurgeAndMaintenance.md"

@Suite("Documented exit codes")
struct DocumentedExitCodeTests {
    @Test func theMaintenanceArticlesExitCodeTableMatchesSynctablesHelp() async throws {
        let article = try String(
            contentsOf: RepositoryRoot.url.appendingPathComponent(maintenanceArticle), encoding: .utf8)
        let help = try await SynctablesExecutable.run(["--help"]).stdout
        let section = try #require(
            help.components(separatedBy: "EXIT CODES:").last?.components(separatedBy: "USAGE:").first)

        var codes: [(String, String)] = []
        for line in section.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let code = trimmed.prefix { $0.isNumber }
            if !code.isEmpty, line.hasPrefix("  ") && !line.hasPrefix("        ") {
                codes.append((String(code), trimmed.dropFirst(code.count).trimmingCharacters(in: .whitespaces)))
            } else if let last = codes.popLast() {
                codes.append((last.0, last.1 + " " + trimmed))  // a wrapped meaning
            }
        }

        #expect(codes.map(\.0) == ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "64"])
        for (code, meaning) in codes {
            #expect(article.contains("| `\(code)` | \(meaning) |"), "exit code \(code)")
        }
    }
}
