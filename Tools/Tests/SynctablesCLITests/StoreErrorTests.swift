import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("synctables store and usage errors")
struct StoreErrorTests {
    @Test func aMissingStoreExits6WithOneLineAndNoFileIsCreated() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()

            let run = try await harness.run(["status"], store: path)
            let json = try await harness.run(["status", "--json"], store: path)

            #expect(run.status == 6)
            #expect(run.stderrLines == ["synctables: error: no store at \(path)"])
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(try json.json["error"]?.objectValue?["kind"] == "storeNotFound")
            #expect(try json.json["error"]?.objectValue?["exitCode"] == 6)
        }
    }

    @Test func aFileThatIsNotADatabaseExits7AndIsLeftByteForByteAsItWas() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            let garbage = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
            try garbage.write(to: URL(fileURLWithPath: path))

            let run = try await harness.run(["queue"], store: path)

            #expect(run.status == 7)
            #expect(run.stderrLines.count == 1 && run.stderr.contains("not a database"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
        }
    }

    @Test func aStoreLockedBeyondTheBusyTimeoutExits8AndTheOtherWriterLosesNothing() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.withContext(path) {
                _ = try await $0.table(JSONObject.self, named: "todo").insert(["id": "a"])
            }
            let marker = harness.directory.appendingPathComponent("locked").path
            let holder = try SQLiteStore(path: path)
            // This test process holds a write transaction on the file while synctables runs.
            let holding = Task {
                try await holder.write { transaction in
                    try transaction.upsert(table: "todo", items: [["id": "held"]])
                    _ = FileManager.default.createFile(atPath: marker, contents: nil)
                    Thread.sleep(forTimeInterval: 3)
                }
            }
            while !FileManager.default.fileExists(atPath: marker) { try await Task.sleep(for: .milliseconds(20)) }

            let run = try await harness.run(["status", "--busy-timeout", "200"], store: path)

            try await holding.value
            try await holder.close()
            #expect(run.status == 8, "\(run.stderr)")
            #expect(run.stderrLines.count == 1 && run.stderr.contains("locked"))
            #expect(try await rows("todo", in: path).map { $0["id"] } == ["a", "held"])
        }
    }

    #if !SQLCipher
        @Test func aKeyOptionInABuildWithoutSQLCipherExits10NamingTheTrait() async throws {
            try await CLIHarness.with { harness in
                let path = harness.newStorePath()
                try await harness.withContext(path) { _ in }
                let keyFile = harness.directory.appendingPathComponent("key").path
                try "secret\n".write(toFile: keyFile, atomically: true, encoding: .utf8)

                let runs = [
                    try await harness.run(["status", "--key", "secret"], store: path),
                    try await harness.run(["status", "--key-file", keyFile], store: path),
                    try await harness.run(["status"], store: path, environment: ["SYNCTABLES_KEY": "secret"]),
                ]

                for run in runs {
                    #expect(run.status == 10)
                    #expect(run.stderrLines.count == 1 && run.stderr.contains("built without the SQLCipher trait"))
                }
            }
        }
    #endif

    @Test func usageErrorsExit64WithExactlyOneLineOnStderr() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.withContext(path) { _ in }
            let cases: [[String]] = [
                ["status"], ["frobnicate", "--store", path], ["status", "--store", path, "--bogus"],
                ["status", "--store", path, "--key", "a", "--key-file", "b"],
                ["status", "--store", path, "--busy-timeout", "soon"],
            ]
            for arguments in cases {
                let run = try await SynctablesExecutable.run(arguments)
                #expect(run.status == 64, "\(arguments)")
                #expect(run.stderrLines.count == 1, "\(arguments): \(run.stderr)")
                #expect(run.stderr.hasPrefix("synctables: error: "), "\(arguments)")
            }
        }
    }

    @Test func helpListsTheCommandsAndTheExitCodes() async throws {
        let run = try await SynctablesExecutable.run(["--help"])

        #expect(run.status == 0)
        for text in ["status", "queue", "errors", "push", "pull", "purge", "EXIT CODES", "64", "purge refused"] {
            #expect(run.stdout.contains(text), "\(text)")
        }
    }
}
