import Foundation
import Testing

/// The demo that `scripts/demo` runs: the `todo-demo` program, started as a user would start it.
@Suite("Demos") struct DemoTests {
    @Test(.timeLimit(.minutes(5)))
    func theDemoRunsEveryStepAndEndsWithDone() async throws {
        // Given the built demo program
        let demo = SynctablesExecutable.directory.appendingPathComponent("todo-demo")
        try #require(FileManager.default.isExecutableFile(atPath: demo.path), "build todo-demo first")

        // When it runs
        let run = try await SynctablesExecutable.runProcess(demo, arguments: [], environment: [:])

        // Then it exits 0 after the eleven numbered steps, in order, and the final "Done."
        #expect(run.status == 0, "todo-demo failed: \(run.stderr)\n\(run.stdout)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let steps = lines.compactMap { line -> Int? in
            guard let dot = line.firstIndex(of: "."), line[dot...].hasPrefix(". ") else { return nil }
            return Int(line[..<dot])
        }
        #expect(steps == Array(1...11), "numbered steps: \(steps)\n\(run.stdout)")
        #expect(lines.last == "Done.")
        // And each step shows its outcome
        for expected in [
            "0 pending operation(s)",  // step 2: the push emptied the queue
            "laptop: 2 item(s), 0 pending operation(s)",  // step 3: the laptop's incremental pull
            "conflict:",  // step 5
            "resolved 1 conflict(s)",  // step 6
            "purge refused: table TodoItem has pending operations",  // step 7
            "forced purge removed",  // step 7
            "Free-range eggs, 5 left",  // step 9: both decrements kept, the laptop's name
            "quantity: 8 + (−3)",  // step 9: the merge's trace
            "alice-phone: 2 item(s), 0 pending operation(s)",  // step 10: each user sees only their rows
            "bob-laptop: 1 item(s), 0 pending operation(s)",  // step 10
            "Bob asks for Alice's item by id: HTTP 404",  // step 10
            "the phone pulled 1 record(s) for Bob",  // step 11: the wipe left nothing of Alice's
        ] {
            #expect(run.stdout.contains(expected), "missing \"\(expected)\" in:\n\(run.stdout)")
        }
        // The embedded server logs its start on stderr; nothing there may be an error.
        #expect(!run.stderr.lowercased().contains("error"), "stderr: \(run.stderr)")
    }

    @Test func theDemoScriptInstallsOnlyWhatTheDemoBuildsAgainst() async throws {
        // Given the scripts a new user runs
        let root = RepositoryRoot.url
        let demoScript = try String(contentsOf: root.appendingPathComponent("scripts/demo"), encoding: .utf8)
        let installDeps = root.appendingPathComponent("scripts/install-deps")

        // When the sets of system packages are listed
        let bash = URL(fileURLWithPath: "/bin/bash")
        let demo = try await SynctablesExecutable.runProcess(
            bash, arguments: [installDeps.path, "--list", "demo"], environment: [:])
        let test = try await SynctablesExecutable.runProcess(
            bash, arguments: [installDeps.path, "--list", "test"], environment: [:])

        // Then the demo asks for its own set: SQLite, curl and zlib to build against, no test tooling
        #expect(demoScript.contains("scripts/install-deps demo\n"))
        #expect(demo.status == 0 && test.status == 0, "\(demo.stderr) \(test.stderr)")
        let demoPackages = Set(demo.stdout.split(separator: "\n").map(String.init))
        #expect(demoPackages == ["pkg-config", "libsqlite3-dev", "libcurl4-openssl-dev", "zlib1g-dev"])
        let testPackages = Set(test.stdout.split(separator: "\n").map(String.init))
        #expect(testPackages.isSuperset(of: demoPackages.union(["postgresql", "libsqlcipher-dev"])))
    }

    @Test(.timeLimit(.minutes(5)))
    func theEngineDemoShowsOfflineBackoffAndADeadLetterDiscarded() async throws {
        let demo = SynctablesExecutable.directory.appendingPathComponent("engine-demo")
        try #require(FileManager.default.isExecutableFile(atPath: demo.path), "build engine-demo first")

        let run = try await SynctablesExecutable.runProcess(demo, arguments: [], environment: [:])

        #expect(run.status == 0, "engine-demo failed: \(run.stderr)\n\(run.stdout)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.last == "Done.")
        for expected in [
            "state: offline", "queued: 3 operation(s)", "state: backoff until", "state: syncing (pushing)",
            "dead: poison, HTTP 422", "discarded 1 dead operation(s); queued: 0",
        ] {
            #expect(run.stdout.contains(expected), "missing \"\(expected)\" in:\n\(run.stdout)")
        }
    }
}
