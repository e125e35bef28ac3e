import Foundation
import Subprocess
import SyncTablesServer
import SyncTablesServerTesting
import SystemPackage
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// One push at a time per store file, across processes, seen in `sync-server`'s request log.
@Suite("one pusher per store file")
struct PushLeaseProcessTests {
    /// Queues `count` inserts into `todo` of a new store, as an app would, and returns its path.
    private static func storeWithInserts(_ harness: CLIHarness, count: Int) async throws -> String {
        let path = harness.newStorePath()
        try await harness.withContext(path) { context in
            let todo = try await context.table(JSONObject.self, named: "todo")
            _ = try await todo.insert(
                contentsOf: (0..<count).map { ["id": .string("t\($0)"), "n": .integer(Int64($0))] })
        }
        return path
    }

    /// The ids the server received a `POST` for, one entry per request.
    private static func postedIds(_ requests: [RecordedRequest]) -> [String] {
        requests.filter { $0.method == "POST" && $0.path.hasPrefix("/tables/todo") }
            .compactMap { request in request.body.flatMap { try? JSONObject(parsing: $0) }?["id"]?.stringValue }
    }

    @Test func synctablesPushWhileTheAppPushesTheSameFileExits11AndSendsNothing() async throws {
        try await CLIHarness.with { harness in
            let path = try await Self.storeWithInserts(harness, count: 5)
            let started = Gate()
            let proceed = Gate()
            let handler = PausingPushHandler(started: started, proceed: proceed)
            try await harness.withContext(path, pushHandler: handler) { context in
                // Given the app in the middle of its push,
                let push = Task { try await context.push() }
                await started.wait()

                // when synctables pushes the same file,
                let refused = try await harness.run(["push", "--json"], store: path, server: true)
                await proceed.open()
                let summary = try await push.value

                // then it is refused, naming the app's process, and every operation is sent once, by the app.
                #expect(refused.status == 11, "\(refused.stdout) \(refused.stderr)")
                #expect(
                    refused.stdout.contains("pushInProgress") && refused.stdout.contains("pid"), "\(refused.stdout)")
                #expect(summary.pushedOperations == 5)
            }
            let posted = Self.postedIds(try await harness.controls.requests())
            #expect(posted.sorted() == (0..<5).map { "t\($0)" }.sorted())
            let again = try await harness.run(["push", "--json"], store: path, server: true)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(try again.json["pushedOperations"] == 0)
        }
    }

    @Test func aPusherKilledMidPushIsTakenOverByTheNextAndEachInsertLandsOnce() async throws {
        let kills = ProcessInfo.processInfo.environment["SYNCTABLES_LEASE_KILLS"].flatMap(Int.init) ?? 3
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            // Slow POSTs, so the child is killed with a request on the wire or between requests.
            try await harness.controls.addFault(
                FaultRule(method: "POST", path: "/tables/todo", occurrence: nil, action: .delay(milliseconds: 20)))
            for round in 0..<kills {
                try await harness.withContext(path) { context in
                    let todo = try await context.table(JSONObject.self, named: "todo")
                    let items: [JSONObject] = (0..<10).map { ["id": .string("r\(round)-\($0)")] }
                    _ = try await todo.insert(contentsOf: items)
                }
                let before = Self.postedIds(try await harness.controls.requests()).count
                // Given a pusher killed after a few requests, holding its lease,
                let status = try await CrashChildPusher.runKilled(
                    path: path, server: harness.url, leaseSeconds: 3,
                    afterRequests: { try await Self.postedIds(harness.controls.requests()).count >= before + 3 })
                #expect(status == .signaled(SIGKILL), "round \(round)")

                // then synctables takes the push over at once: the lease's process is gone (its expiry, for a
                // holder that cannot be asked, is PushLeaseTests' concern).
                let takeover = try await harness.run(["push", "--json"], store: path, server: true)
                #expect(takeover.status == 0, "round \(round): \(takeover.stdout) \(takeover.stderr)")
            }
            let posted = Self.postedIds(try await harness.controls.requests())
            let expected = (0..<kills).flatMap { round in (0..<10).map { "r\(round)-\($0)" } }
            // Each insert reached the server; only one a killed pusher had on the wire may have been sent twice.
            #expect(Set(posted) == Set(expected))
            #expect(posted.count <= expected.count + kills, "\(posted.count) POSTs for \(expected.count) inserts")
            let status = try await harness.run(["status", "--json"], store: path)
            #expect(try status.json["pendingOperations"] == 0)
        }
    }
}

/// `sync-crash-child push`, killed with `SIGKILL` once `afterRequests` says the server has seen enough.
enum CrashChildPusher {
    static func runKilled(
        path: String, server: URL, leaseSeconds: Int, afterRequests: @escaping @Sendable () async throws -> Bool
    ) async throws -> TerminationStatus {
        let binary = SynctablesExecutable.directory.appendingPathComponent("sync-crash-child")
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build sync-crash-child first")
        let lease = try #require(Environment.Key(rawValue: "SYNCTABLES_PUSH_LEASE_SECONDS"))
        let result = try await Subprocess.run(
            .path(FilePath(binary.path)), arguments: ["push", server.absoluteString, path, "todo"],
            environment: .inherit.updating([lease: String(leaseSeconds)]), input: .none, output: .discarded,
            error: .discarded
        ) { execution in
            let deadline = ContinuousClock.now + .seconds(30)
            while try await !afterRequests(), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(2))
            }
            try? execution.send(signal: .kill)
        }
        return result.terminationStatus
    }
}

/// Opens once and stays open; waiters before the opening wait for it.
actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        guard !isOpen else { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}

/// Announces the push's first operation and holds it until told to go on.
struct PausingPushHandler: PushHandler {
    let started: Gate
    let proceed: Gate

    func execute(_ operation: PushOperation, send: PushOperation.Sender) async throws -> JSONObject? {
        await started.open()
        await proceed.wait()
        return try await send(operation)
    }
}
