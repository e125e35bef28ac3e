import Logging
import PostgresNIO

@testable import SyncTablesServer

/// The rows of the blob relations in a test schema, read on a direct session (outside any server).
enum PostgresBlobRows {
    static let blobs = "__synctables_blobs"
    static let parts = "__synctables_blob_parts"
    static let uploads = "__synctables_blob_uploads"

    /// One entry per row of the three blob relations (`blobs:<hash>`, `parts:<content>@<start>`,
    /// `uploads:<token>`); empty when the storage holds nothing.
    static func all(in database: PostgresStorage) async throws -> [String] {
        try await TestBackend.withSession(database) { connection in
            let rows = try await connection.query(
                """
                SELECT 'blobs:' || hash FROM \(unescaped: relation(blobs, database))
                UNION ALL SELECT 'parts:' || content || '@' || start FROM \(unescaped: relation(parts, database))
                UNION ALL SELECT 'uploads:' || token FROM \(unescaped: relation(uploads, database))
                """, logger: Logger(label: "test"))
            var entries: [String] = []
            for try await entry in rows.decode(String.self) { entries.append(entry) }
            return entries
        }
    }

    /// How many rows one of the blob relations has.
    static func count(_ name: String, in database: PostgresStorage) async throws -> Int {
        try await TestBackend.withSession(database) { connection in
            let rows = try await connection.query(
                "SELECT count(*) FROM \(unescaped: relation(name, database))", logger: Logger(label: "test"))
            for try await count in rows.decode(Int64.self) { return Int(count) }
            return 0
        }
    }

    /// Whether a server's session holds an upload's row lock while it waits for the request body (its last
    /// statement took the lock, and its transaction is open).
    static func anAppendHoldsItsUpload(in database: PostgresStorage) async throws -> Bool {
        try await TestBackend.withSession(database) { connection in
            let rows = try await connection.query(
                """
                SELECT count(*) FROM pg_stat_activity
                WHERE state = 'idle in transaction' AND position(\(database.schema) IN query) > 0
                AND position('FOR UPDATE NOWAIT' IN query) > 0
                """, logger: Logger(label: "test"))
            for try await count in rows.decode(Int64.self) { return count > 0 }
            return false
        }
    }

    private static func relation(_ name: String, _ database: PostgresStorage) -> String {
        "\(PostgresSQL.identifier(database.schema)).\(PostgresSQL.identifier(name))"
    }
}
