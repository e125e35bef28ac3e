import Foundation
import Subprocess
import SyncTablesServer
import SyncTablesServerTesting
import SystemPackage
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("synctables sync")
struct SyncCommandTests {
    @Test func syncRunsOneCyclePushingTheQueueAndPullingEachTable() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.withContext(path) { context in
                _ = try await context.table(JSONObject.self, named: "todo").insert(["id": "local", "text": "a"])
            }
            try await harness.seed("note", [["id": "n1", "text": "from the server"]])
            let config = try Self.write(
                """
                definitions:
                  - table: todo
                    queryId: all-todos
                  - table: note
                    pageSize: 10
                """, in: harness.directory)

            let run = try await harness.run(["sync", "--config", config, "--json"], store: path, server: true)

            #expect(run.status == 0, "\(run.stderr)")
            let json = try run.json
            #expect(json["outcome"] == "completed" && json["pushedOperations"] == 1)
            #expect(json.objects("pulls").map { $0["table"] } == ["todo", "note"])
            #expect(try await rows("note", in: path).map { $0["id"] } == ["n1"])
            #expect(try await harness.controls.requests().contains { $0.method == "POST" && $0.path == "/tables/todo" })
        }
    }

    @Test func syncExits3WhenTheServerCannotBeReachedKeepingTheQueue() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.withContext(path) { context in
                _ = try await context.table(JSONObject.self, named: "todo").insert(["id": "local"])
            }
            let config = try Self.write("definitions: [{ table: todo }]", in: harness.directory)

            let run = try await SynctablesExecutable.run([
                "sync", "--store", path, "--server", "http://127.0.0.1:9", "--config", config,
            ])

            #expect(run.status == 3)
            #expect(run.stderrLines.count == 1 && run.stderr.contains("nothing was lost"))
            let pending = try await harness.withContext(path) { try await $0.pendingOperationCount() }
            #expect(pending == 1)
        }
    }

    /// Each invalid file, and the line and message its error must have.
    static let invalidFiles: [(text: String, error: String)] = [
        ("", "sync.yml:1: the file is empty"),
        ("definitions: [ { table: todo }", "sync.yml:2: not valid YAML or JSON: did not find expected ',' or ']'"),
        ("engine: {}\n", "sync.yml:1: missing key 'definitions'"),
        ("definitions: []\n", "sync.yml:1: definitions: must name at least one table"),
        ("definitions: todo\n", "sync.yml:1: definitions: must be a list of definitions"),
        ("definitions:\n  - queryId: x\n", "sync.yml:2: definitions[0]: missing key 'table'"),
        (
            "definitions:\n  - table: todo\n    intervall: 30s\n",
            "sync.yml:3: definitions[0].intervall: unknown key (known here: table, queryId, interval"
        ),
        (
            "definitions:\n  - table: todo\n    interval: soon\n",
            "sync.yml:3: definitions[0].interval: 'soon' is not a duration"
        ),
        (
            "definitions:\n  - table: todo\n    interval: 0s\n",
            "sync.yml:3: definitions[0].interval: must be longer than zero"
        ),
        (
            "definitions:\n  - table: todo\n    maxAge: -5s\n",
            "sync.yml:3: definitions[0].maxAge: '-5s' is not a duration"
        ),
        (
            "definitions:\n  - table: todo\n    triggers: [appStart, onWifi]\n",
            "sync.yml:3: definitions[0].triggers[1]: unknown trigger 'onWifi'"
        ),
        (
            "definitions:\n  - table: todo\n    triggers: [afterLocalWrite]\n",
            "sync.yml:3: definitions[0].triggers[0]: afterLocalWrite needs a debounce"
        ),
        (
            "definitions:\n  - table: todo\n    triggers: [{ afterLocalWrite: later }]\n",
            "sync.yml:3: definitions[0].triggers[0].afterLocalWrite: 'later' is not a duration"
        ),
        (
            "definitions:\n  - table: todo\n    triggers: networkReconnect\n",
            "sync.yml:3: definitions[0].triggers: must be a list"
        ),
        (
            "definitions:\n  - table: todo\n    triggers: [intervalOnly]\n",
            "sync.yml:2: definitions[0]: 'intervalOnly' needs an interval"
        ),
        (
            "definitions:\n  - table: todo\n    pageSize: 0\n",
            "sync.yml:3: definitions[0].pageSize: must be at least 1, not 0"
        ),
        (
            "definitions:\n  - table: todo\n    pageSize: many\n",
            "sync.yml:3: definitions[0].pageSize: must be a whole number, not 'many'"
        ),
        (
            "definitions:\n  - table: todo\n    conflictPolicy: newestWins\n",
            "sync.yml:3: definitions[0].conflictPolicy: unknown policy 'newestWins' (use one of: manual, serverWins, clientWins)"
        ),
        ("definitions:\n  - table: [a, b]\n", "sync.yml:2: definitions[0].table: must be a non-empty text"),
        (
            "definitions:\n  - table: todo\n    table: note\n",
            "sync.yml:2: a key appears twice in one mapping: 'table'"
        ),
        (
            "engine:\n  maxQueueSize: 0\ndefinitions: [{ table: todo }]\n",
            "sync.yml:2: engine.maxQueueSize: must be at least 1, not 0"
        ),
        (
            "engine:\n  historyLimit: -1\ndefinitions: [{ table: todo }]\n",
            "sync.yml:2: engine.historyLimit: must be at least 0, not -1"
        ),
        (
            "engine:\n  historyMaxAge: a week\ndefinitions: [{ table: todo }]\n",
            "sync.yml:2: engine.historyMaxAge: 'a week' is not a duration"
        ),
        (
            "engine:\n  breakerThreshold: two\ndefinitions: [{ table: todo }]\n",
            "sync.yml:2: engine.breakerThreshold: must be a whole number, not 'two'"
        ),
        (
            "engine:\n  breakerCooldown: 1 minute\ndefinitions: [{ table: todo }]\n",
            "sync.yml:2: engine.breakerCooldown: '1 minute' is not a duration"
        ),
        (
            "engine:\n  minimumCycleInterval: fast\ndefinitions: [{ table: todo }]\n",
            "sync.yml:2: engine.minimumCycleInterval: 'fast' is not a duration"
        ),
        (
            "engine:\n  retries: {}\ndefinitions: [{ table: todo }]\n",
            "sync.yml:2: engine.retries: unknown key (known here: minimumCycleInterval"
        ),
        (
            "engine:\n  retry: { maxAttempts: 0 }\ndefinitions: [{ table: todo }]\n",
            "sync.yml:2: engine.retry.maxAttempts: must be at least 1, not 0"
        ),
        (
            "engine:\n  retry: { baseDelay: 10s, maximumDelay: 1s }\ndefinitions: [{ table: todo }]\n",
            "sync.yml:2: engine.retry: maximumDelay must not be shorter than baseDelay"
        ),
        (
            "engine:\n  retry: { jitter: 0.5 }\ndefinitions: [{ table: todo }]\n",
            "sync.yml:2: engine.retry.jitter: unknown key (known here: baseDelay, maximumDelay, maxAttempts)"
        ),
        ("definitionz: []\n", "sync.yml:1: definitionz: unknown key (known here: engine, definitions)"),
        (
            "{\n  \"definitions\": [\n    { \"table\": \"todo\", \"maxAge\": \"a while\" }\n  ]\n}\n",
            "sync.yml:3: definitions[0].maxAge: 'a while' is not a duration"
        ),
    ]

    @Test func aBadConfigurationFileIsRefusedWithItsLineAndKeyBeforeAnythingRuns() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sync-config-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("sync.yml")
        for (text, expected) in Self.invalidFiles {
            try text.write(to: file, atomically: true, encoding: .utf8)
            let run = try await SynctablesExecutable.run([
                "sync", "--store", "/nonexistent/store.sqlite", "--server", "http://127.0.0.1:9", "--config",
                file.path,
            ])
            let message = run.stderr.replacingOccurrences(of: file.path, with: "sync.yml")
            #expect(run.status == 64, "\(text)")
            #expect(message.hasPrefix("synctables: error: \(expected)"), "for \(text.debugDescription): \(message)")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func syncWatchKeepsAReplicaFreshSurvivesAServerOutageAndExits0OnSIGTERM() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sync-watch-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("server.sqlite").path
        func startServer(port: Int) async throws -> SyncServer {
            let server = try await SyncServer(
                configuration: SyncServerConfiguration(
                    port: port, storage: .file(path: database), softDelete: .allTables
                ).withTestControls())
            try await server.start()
            return server
        }
        var server = try await startServer(port: 0)
        let url = try #require(server.url)
        let port = try #require(url.port)
        let path = directory.appendingPathComponent("replica.sqlite").path
        let context = try await SyncContext(store: try SQLiteStore(path: path), client: SyncClient(url: url))
        let todos = try await context.table(JSONObject.self, named: "todo")
        try await todos.insert(["id": "local-1", "text": "before the start"])
        let config = try Self.write(
            """
            engine:
              retry: { baseDelay: 100ms, maximumDelay: 400ms, maxAttempts: 1000 }
              breakerThreshold: 1000
            definitions:
              - table: todo
                queryId: all
                interval: 300ms
                triggers: [appStart]
            """, in: directory)
        let log = directory.appendingPathComponent("watch.log")
        let output = try FileDescriptor.open(
            FilePath(log.path), .writeOnly, options: [.create, .append], permissions: .ownerReadWrite)
        let errors = try FileDescriptor.open(FilePath(log.path), .writeOnly, options: [.append])

        let result = try await Subprocess.run(
            .path(FilePath(SynctablesExecutable.url.path)),
            arguments: ["sync", "--watch", "--store", path, "--server", url.absoluteString, "--config", config],
            input: .none, output: .fileDescriptor(output, closeAfterSpawningProcess: true),
            error: .fileDescriptor(errors, closeAfterSpawningProcess: true)
        ) { execution in
            do {
                try await eventually("the queue is pushed at start") { try await Self.serverHas("local-1", url) }
                _ = try await server.testControls?.seed(table: "todo", items: [["id": "remote-1", "text": "a"]])
                try await eventually("an interval pulls the server's row") {
                    try await todos.lookup(id: "remote-1") != nil
                }

                // The server goes away: cycles fail and back off; a write meanwhile waits in the queue.
                try await server.stop()
                try await todos.insert(["id": "local-2", "text": "while the server is down"])
                try await eventually("a cycle fails") {
                    (try? String(contentsOf: log, encoding: .utf8))?.contains("failed(reason") ?? false
                }
                server = try await startServer(port: port)
                _ = try await server.testControls?.seed(table: "todo", items: [["id": "remote-2", "text": "b"]])
                try await eventually("it comes back: the write is pushed and the new row pulled") {
                    let pushed = try await Self.serverHas("local-2", url)
                    let pulled = try await todos.lookup(id: "remote-2") != nil
                    return pushed && pulled
                }
                try execution.send(signal: .terminate)
            } catch {
                try? execution.send(signal: .kill)
                throw error
            }
        }

        try await server.stop()
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        #expect(result.terminationStatus == .exited(0), "\(lines.suffix(5))")
        #expect(lines.last == "stopped by SIGTERM")
        #expect(lines.dropLast().allSatisfy { $0.contains(" cycle (") }, "one line per cycle: \(lines.prefix(5))")
        #expect(lines.contains { $0.contains("failed(reason") } && lines.contains { $0.contains("completed") })
        #expect(try await context.pendingOperationCount() == 0)
        try await context.close()
    }

    @Test(.timeLimit(.minutes(2)))
    func syncWatchPullsAServerChangeAtOnceThroughTheChangeFeed() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sync-live-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await SyncServer(
            configuration: SyncServerConfiguration(storage: .inMemory).withTestControls())
        try await server.start()
        let url = try #require(server.url)
        let path = directory.appendingPathComponent("replica.sqlite").path
        let context = try await SyncContext(store: try SQLiteStore(path: path), client: SyncClient(url: url))
        let todos = try await context.table(JSONObject.self, named: "todo")
        // No interval and no other trigger: only the feed pulls.
        let config = try Self.write(
            """
            definitions:
              - table: todo
                queryId: all
                triggers: [serverChange]
            """, in: directory)
        let log = directory.appendingPathComponent("watch.log")
        let output = try FileDescriptor.open(
            FilePath(log.path), .writeOnly, options: [.create, .append], permissions: .ownerReadWrite)
        let errors = try FileDescriptor.open(FilePath(log.path), .writeOnly, options: [.append])

        let result = try await Subprocess.run(
            .path(FilePath(SynctablesExecutable.url.path)),
            arguments: ["sync", "--watch", "--store", path, "--server", url.absoluteString, "--config", config],
            input: .none, output: .fileDescriptor(output, closeAfterSpawningProcess: true),
            error: .fileDescriptor(errors, closeAfterSpawningProcess: true)
        ) { execution in
            do {
                try await eventually("the feed is live") {
                    (try? String(contentsOf: log, encoding: .utf8))?.contains("change feed: live") ?? false
                }
                _ = try await server.testControls?.seed(table: "todo", items: [["id": "remote-1", "text": "a"]])
                try await eventually("the server's change is pulled") { try await todos.lookup(id: "remote-1") != nil }
                try execution.send(signal: .terminate)
            } catch {
                try? execution.send(signal: .kill)
                throw error
            }
        }

        try await server.stop()
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        #expect(result.terminationStatus == .exited(0), "\(lines.suffix(5))")
        #expect(lines.contains { $0.hasSuffix("change feed: live") })
        #expect(lines.contains { $0.contains(" cycle (") && $0.contains("completed") })
        #expect(lines.last == "stopped by SIGTERM")
        try await context.close()
    }

    private static func serverHas(_ id: String, _ url: URL) async throws -> Bool {
        let page = try await SyncClient(url: url).query(table: "todo", queryString: "$filter=id%20eq%20'\(id)'")
        return !page.items.isEmpty
    }

    private static func write(_ text: String, in directory: URL) throws -> String {
        let file = directory.appendingPathComponent("sync-\(UUID().uuidString).yml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }
}

/// Polls `condition` every 20 ms until it holds, recording an issue after 30 s.
private func eventually(_ what: String, _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(30)
    while try await !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("never happened: \(what)")
            return
        }
        try await Task.sleep(for: .milliseconds(20))
    }
}
