import Foundation
import Logging
import PostgresNIO
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// A harness server whose records of keyed writes a test can count: on SQLite its store is one the test holds
/// (in memory), on PostgreSQL the records are read from the database.
enum IdempotencyRecords {
    /// Starts the server as ``ServerHarness/with(_:_:)`` does, on a store the test can read when on SQLite.
    static func withServer(
        _ configure: @escaping (inout SyncServerConfiguration) -> Void = { _ in },
        _ body: (ServerHarness) async throws -> Void
    ) async throws {
        let store = TestBackend.isPostgres ? nil : try SQLiteStore.inMemory()
        try await ServerHarness.with({ configuration in
            if let store { configuration.storage = .store(store) }
            configure(&configuration)
        }) { server in
            try await body(server)
        }
        try await store?.close()
    }

    /// How many records the server's database holds.
    static func count(_ server: ServerHarness) async throws -> Int {
        switch server.server.configuration.storage {
        case .store(let store):
            do {
                return try await store.count(StoreQuery(table: SQLiteIdempotencyTable.name))
            } catch StoreError.unknownTable {
                return 0
            }
        case .postgres(let database):
            return try await TestBackend.withSession(database) { connection in
                let rows = try await connection.query(
                    PostgresQuery(unsafeSQL: "SELECT count(*) FROM \"\(database.schema)\".\"__idempotency\""),
                    logger: Logger(label: "test"))
                for try await row in rows { return Int(try row.decode(Int64.self)) }
                return 0
            }
        default:
            Issue.record("the records of this storage cannot be counted")
            return -1
        }
    }
}
