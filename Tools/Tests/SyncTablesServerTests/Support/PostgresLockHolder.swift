import Logging
import PostgresNIO
import Testing

@testable import SyncTablesServer

/// Direct sessions on the test's PostgreSQL database that hold locks in open transactions, and one more that
/// watches the server's connections wait for them.
struct PostgresLockHolder {
    let database: PostgresStorage
    let sessions: [PostgresConnection]
    let monitor: PostgresConnection
    let logger = Logger(label: "test")

    static func with(_ database: PostgresStorage, _ body: (PostgresLockHolder) async throws -> Void) async throws {
        try await TestBackend.withSession(database) { first in
            try await TestBackend.withSession(database) { second in
                try await TestBackend.withSession(database) { monitor in
                    try await body(PostgresLockHolder(database: database, sessions: [first, second], monitor: monitor))
                }
            }
        }
    }

    /// Opens a transaction in `session` that locks the row `id`.
    func lockRow(session: Int, table: String, id: String) async throws {
        try await sessions[session].query("BEGIN", logger: logger)
        try await sessions[session].query(
            "SELECT id FROM \(unescaped: relation(PostgresSQL.relation(table))) WHERE id = \(id) FOR UPDATE",
            logger: logger)
    }

    /// Opens a transaction in `session` that locks the table's counter row.
    func lockCounter(session: Int, table: String) async throws {
        try await sessions[session].query("BEGIN", logger: logger)
        let name = PostgresSQL.relation(table)
        let rows = try await sessions[session].query(
            "SELECT name FROM \(unescaped: relation("__synctables_tables")) WHERE name = \(name) FOR UPDATE",
            logger: logger)
        var locked = 0
        for try await _ in rows { locked += 1 }
        try #require(locked == 1, "no counter row for \(table)")
    }

    func commit(session: Int) async throws {
        try await sessions[session].query("COMMIT", logger: logger)
    }

    /// Waits (up to 20 s) until exactly `count` of the server's statements on this schema wait for a lock;
    /// `false` when they never do. The monitor runs each query in a transaction of its own, so it sees
    /// `pg_stat_activity` afresh.
    func waitForWaiters(_ count: Int) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            let rows = try await monitor.query(
                """
                SELECT count(*) FROM pg_stat_activity
                WHERE wait_event_type = 'Lock' AND position(\(database.schema) IN query) > 0
                """, logger: logger)
            for try await row in rows where try row.decode(Int64.self) == count { return true }
            try await Task.sleep(for: .milliseconds(5))
        }
        return false
    }

    private func relation(_ name: String) -> String {
        "\(PostgresSQL.identifier(database.schema)).\(PostgresSQL.identifier(name))"
    }
}
