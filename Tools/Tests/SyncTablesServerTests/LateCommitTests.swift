import Foundation
import Logging
import PostgresNIO
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@_spi(SyncTablesTools) @testable import SyncTablesSQLite
@testable import SyncTablesServer

/// A write that starts before others and commits after them must still reach every client that pulls
/// incrementally (see the DocC article "Change order").
///
/// On PostgreSQL a direct database session holds the late write's row locked, so its request is in flight while
/// later writes commit and a client pulls. On SQLite a direct connection to the server's database file holds its
/// write lock (`BEGIN IMMEDIATE`): the server's store has one connection, so a write waits for that lock before it
/// takes its stamp, and until it gets it nothing else commits; reads that need the store wait behind it on the
/// store's serial actor. Held longer than the store's busy timeout, the write fails with 503 and changes nothing.
@Suite("Late commits")
struct LateCommitTests {
    @Test(.enabled(if: TestBackend.postgresURL != nil), .timeLimit(.minutes(5)))
    func aWriteHeldOpenWhileLaterWritesCommitIsReturnedByTheNextIncrementalPull() async throws {
        let database = try TestBackend.freshPostgresDatabase()
        try await ServerHarness.with({ $0.storage = .postgres(database) }) { server in
            let original = try await server.insert("todo", #"{"id":"x","text":"early"}"#)
            var token = try #require(original.string("updatedAt"))
            try await TestBackend.withSession(database) { session in
                let logger = Logger(label: "test")
                try await session.query("BEGIN", logger: logger)
                try await session.query(
                    PostgresQuery(unsafeSQL: "SELECT id FROM \"\(database.schema)\".todo WHERE id = 'x' FOR UPDATE"),
                    logger: logger)
                // The late write: its request starts now and waits on the session's lock.
                let late = Task { try await server.send(.patch, "/tables/todo/x", json: #"{"text":"late"}"#) }
                try await Self.waitForLockWaiter(session, logger: logger)

                try await server.insert("todo", #"{"id":"y"}"#)
                try await server.insert("todo", #"{"id":"z"}"#)
                let pulled = try await Self.pull(server, since: token)
                #expect(pulled.compactMap { $0.string("id") }.contains("z"))
                #expect(!pulled.contains { $0.string("text") == "late" })
                token = try #require(pulled.compactMap { $0.string("updatedAt") }.max())

                try await session.query("COMMIT", logger: logger)
                let patched = try await late.value
                #expect(patched.status == 200, "\(patched.text)")
            }
            let next = try await Self.pull(server, since: token)
            #expect(next.contains { $0.string("id") == "x" && $0.string("text") == "late" }, "\(next)")
        }
        try await TestBackend.dropSchema(of: database)
    }

    @Test(.timeLimit(.minutes(5)))
    func onSQLiteWritesWaitingForAnotherConnectionsLockArePulledOnceTheyCommit() async throws {
        try await Self.withHeldSQLiteFile(busyTimeoutMilliseconds: 20_000) { server, holder in
            let original = try await server.insert("todo", #"{"id":"x","text":"early"}"#)
            let token = try #require(original.string("updatedAt"))
            try holder.execute("BEGIN IMMEDIATE")
            // No write waits yet: the store reads its WAL snapshot without the write lock.
            let during = try await Self.pull(server, since: token)
            #expect(during.compactMap { $0.string("text") } == ["early"])

            try await server.controls.clearRequests()
            let late = Task {
                let response = try await server.send(.patch, "/tables/todo/x", json: #"{"text":"late"}"#)
                return (response, ContinuousClock.now)
            }
            let later = Task {
                let response = try await server.send(.post, "/tables/todo", json: #"{"id":"y"}"#)
                return (response, ContinuousClock.now)
            }
            try await Self.waitForRequests(server, count: 2)
            // Sent while the writes wait, it queues behind them on the store's actor (when they reached the store
            // first, as they do here in practice) and so answers after the release, with the writes that reached the
            // store before it.
            let pull = Task { try await Self.pull(server, since: token) }
            try await Self.waitForRequests(server, count: 3)

            let released = ContinuousClock.now
            try holder.execute("COMMIT")
            for (write, name) in [(late, "the late PATCH"), (later, "the later POST")] {
                let (response, answered) = try await write.value
                #expect((200...201).contains(response.status), "\(name): \(response.text)")
                #expect(answered > released, "\(name) committed while another connection held the write lock")
            }
            let pulled = try await pull.value

            // The client's rows after its next incremental pull: the row versions it holds, the latest winning.
            let next = try await Self.pull(
                server, since: try #require(pulled.compactMap { $0.string("updatedAt") }.max()))
            var held: [String: JSONObject] = [:]
            for row in pulled + next { held[row.string("id") ?? "?"] = row }
            #expect(held["x"]?.string("text") == "late", "\(pulled) then \(next)")
            #expect(held["y"] != nil, "\(pulled) then \(next)")
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func onSQLiteAWriteHeldPastTheBusyTimeoutAnswers503AndChangesNothing() async throws {
        try await Self.withHeldSQLiteFile(busyTimeoutMilliseconds: 200) { server, holder in
            let original = try await server.insert("todo", #"{"id":"x","text":"early"}"#)
            try holder.execute("BEGIN IMMEDIATE")
            let patched = try await server.send(.patch, "/tables/todo/x", json: #"{"text":"late"}"#)
            let inserted = try await server.send(.post, "/tables/todo", json: #"{"id":"y"}"#)
            try holder.execute("COMMIT")

            for response in [patched, inserted] {
                #expect(response.status == 503, "\(response.text)")
                #expect(try response.errorMessage()?.contains("busy") == true, "\(response.text)")
            }
            let stored = try await server.send(.get, "/tables/todo/x").object()
            #expect(stored == original)
            #expect(try await server.send(.get, "/tables/todo/y").status == 404)
            // Sent again once the lock is free, the write succeeds.
            let retried = try await server.send(.patch, "/tables/todo/x", json: #"{"text":"late"}"#)
            #expect(retried.status == 200, "\(retried.text)")
            let next = try await Self.pull(server, since: try #require(original.string("updatedAt")))
            #expect(next.compactMap { $0.string("text") } == ["late"], "\(next)")
        }
    }

    /// Runs `body` with a server on a SQLite file (its store waiting `busyTimeoutMilliseconds` for a lock) and a
    /// connection of the test's own to that file.
    static func withHeldSQLiteFile(
        busyTimeoutMilliseconds: Int32, _ body: (ServerHarness, Database) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("late-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("server.sqlite").path
        let store = try SQLiteStore(
            path: path, configuration: SQLiteStore.Configuration(busyTimeoutMilliseconds: busyTimeoutMilliseconds))
        let holder = try Database(path: path)
        try holder.setBusyTimeout(milliseconds: 5_000)
        do {
            try await ServerHarness.with({ $0.storage = .store(store) }) { server in try await body(server, holder) }
        } catch {
            try? holder.close()
            try? await store.close()
            throw error
        }
        try holder.close()
        try await store.close()
    }

    /// Waits (with a deadline) until the server has received `count` requests since its log was cleared.
    private static func waitForRequests(_ server: ServerHarness, count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if try await server.controls.requests().count >= count { return }
            try await Task.sleep(for: .milliseconds(5))
        }
        Issue.record("the server never received \(count) requests")
    }

    /// One incremental pull as the v2 clients send it (see the *Wire protocol* article of SyncTables, section
    /// *Incremental pull*), all pages.
    static func pull(_ server: ServerHarness, since token: String) async throws -> [JSONObject] {
        var rows: [JSONObject] = []
        var skip = 0
        while true {
            let query =
                "$filter=(updatedAt%20ge%20datetimeoffset'\(token)')&$orderby=updatedAt&$skip=\(skip)&$top=50"
                + "&__includeDeleted=true"
            let page = try await server.send(.get, "/tables/todo?\(query)").objects()
            rows += page
            if page.count < 50 { return rows }
            skip += page.count
        }
    }

    /// Waits (with a deadline) until another session waits for a lock: the late request is blocked.
    private static func waitForLockWaiter(_ session: PostgresConnection, logger: Logger) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            // `pg_stat_activity` is a snapshot taken once per transaction, and this session is in one.
            try await session.query("SELECT pg_stat_clear_snapshot()", logger: logger)
            let rows = try await session.query(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
                logger: logger)
            for try await row in rows where try row.decode(Int64.self) > 0 { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("the late write never waited for the session's lock")
    }
}
