import Foundation
import Logging
import PostgresNIO
import SyncTablesServer
import Testing

/// The storage backend the server tests run on: SQLite in memory, or PostgreSQL when `SYNC_TEST_BACKEND` is
/// `postgres` (`scripts/test` runs the server suite a second time that way, on the throw-away cluster
/// `scripts/postgres-cluster` starts and names in `SYNC_TEST_POSTGRES_URL`).
enum TestBackend {
    /// Whether harness servers store in PostgreSQL.
    static var isPostgres: Bool {
        ProcessInfo.processInfo.environment["SYNC_TEST_BACKEND"] == "postgres"
    }

    /// The test cluster's URL, when one is configured.
    static var postgresURL: String? {
        ProcessInfo.processInfo.environment["SYNC_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A schema of its own on the test cluster, so tests running at once never see each other's tables.
    /// Fails the test when no cluster is configured: a PostgreSQL run never silently falls back to SQLite.
    static func freshPostgresDatabase() throws -> PostgresStorage {
        let url = try #require(
            postgresURL, "SYNC_TEST_BACKEND=postgres needs SYNC_TEST_POSTGRES_URL (scripts/postgres-cluster start)")
        var database = try PostgresStorage(url: url)
        database.schema = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        database.poolSize = 2
        return database
    }

    /// Drops a test schema and everything in it.
    static func dropSchema(of database: PostgresStorage) async throws {
        try await withSession(database) { connection in
            try await connection.query(
                PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \"\(database.schema)\" CASCADE"),
                logger: Logger(label: "test"))
        }
    }

    /// Runs `body` on one direct connection to the database (outside any server).
    @discardableResult
    static func withSession<Result>(
        _ database: PostgresStorage, _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let configuration = PostgresConnection.Configuration(
            host: database.host, port: database.port, username: database.username, password: database.password,
            database: database.database, tls: .disable)
        let connection = try await PostgresConnection.connect(
            configuration: configuration, id: 1, logger: Logger(label: "test"))
        do {
            let result = try await body(connection)
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }
}
