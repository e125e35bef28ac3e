import Foundation
import Logging
import PostgresNIO
import SyncTables
import Testing

@testable import SyncTablesServer

/// A write that starts before others and commits after them must still reach every client that pulls
/// incrementally (see the DocC article "Change order"). A direct database session holds the late write's
/// row locked, so its request is in flight while later writes commit and a client pulls.
@Suite("Late commits on PostgreSQL")
struct LateCommitTests {
    @Test(
        "A write held open while later writes commit and a client pulls is returned by the next incremental pull",
        .enabled(if: TestBackend.postgresURL != nil), .timeLimit(.minutes(1)))
    func lateCommitIsPulledNextTime() async throws {
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

    /// One incremental pull as the v2 clients send it (PROTOCOL §5.7), all pages.
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
            let rows = try await session.query(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
                logger: logger)
            for try await row in rows where try row.decode(Int64.self) > 0 { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("the late write never waited for the session's lock")
    }
}
