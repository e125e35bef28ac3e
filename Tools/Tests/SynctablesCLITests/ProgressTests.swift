import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("synctables push progress")
struct ProgressTests {
    @Test func pushDrawsAProgressLineOnATerminalAndNothingWithJsonOrQuiet() async throws {
        let script = URL(fileURLWithPath: "/usr/bin/script")
        try #require(FileManager.default.isExecutableFile(atPath: script.path), "util-linux `script` gives the pty")
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.withContext(path) { context in
                let todo = try await context.table(JSONObject.self, named: "todo")
                for index in 0..<3 { _ = try await todo.insert(["id": .string("t\(index)")]) }
            }
            let command = [
                SynctablesExecutable.url.path, "push", "--store", path, "--server", harness.url.absoluteString,
            ]

            // `script` runs the command on a pseudo-terminal and copies everything it writes to stdout.
            let onTerminal = try await SynctablesExecutable.runProcess(
                script, arguments: ["-qec", command.joined(separator: " "), "/dev/null"], environment: [:])
            try await harness.withContext(path) { context in
                _ = try await context.table(JSONObject.self, named: "todo").insert(["id": "more"])
            }
            let quiet = try await SynctablesExecutable.runProcess(
                script, arguments: ["-qec", (command + ["--quiet"]).joined(separator: " "), "/dev/null"],
                environment: [:])

            #expect(onTerminal.status == 0, "\(onTerminal.stdout)")
            #expect(onTerminal.stdout.contains("pushing: 3/3, 0 failed"), "\(onTerminal.stdout)")
            #expect(onTerminal.stdout.contains("pushed 3 operation(s)"))
            try await harness.withContext(path) { context in
                _ = try await context.table(JSONObject.self, named: "todo").insert(["id": "last"])
            }
            let json = try await SynctablesExecutable.runProcess(
                script, arguments: ["-qec", (command + ["--json"]).joined(separator: " "), "/dev/null"],
                environment: [:])
            #expect(!json.stdout.contains("pushing"), "\(json.stdout)")
            #expect(try json.json["pushedOperations"] == 1)
            #expect(quiet.status == 0, "\(quiet.stdout)")
            #expect(quiet.stdout.isEmpty, "\(quiet.stdout)")
        }
    }
}
