import Foundation
import Logging
import PostgresNIO
@_spi(SyncTablesTools) import SyncTablesCore
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// One user's pull on an owner-scoped table reads that user's rows through an index led by the owner column,
/// not the whole table's `updatedAt` range.
@Suite("Scope index")
struct ScopeIndexTests {
    @Test(.enabled(if: TestBackend.isPostgres))
    func aScopedPullOnPostgreSQLUsesTheScopeIndex() async throws {
        let database = try TestBackend.freshPostgresDatabase()
        let storage = try await PostgresTableStorage.open(database, logger: Logger(label: "test"))
        do {
            _ = try await storage.prepareTable("notes", scopeColumn: "userId")
            let users = (0..<200).map { "user-\($0)" }
            let rows = (0..<4_000).map { index in
                JSONObject(["id": .string("n\(index)"), "userId": .string(users[index % users.count])])
            }
            _ = try await storage.seed(table: "notes", items: rows) { item, stamp in
                item["updatedAt"] = .string(stamp.timestamp)
                item["version"] = .string(stamp.version)
            }
            let scope = FilterExpression.comparison(.equal, .property("userId"), .value(.string("user-7")))
            let pulled = FilterExpression.and(
                scope,
                .comparison(.greaterThanOrEqual, .property("updatedAt"), .timestamp(Timestamp(ticks: 0))))
            let query = StoreQuery(
                table: "notes", filter: pulled, ordering: [SortDescriptor("updatedAt"), SortDescriptor("id")],
                limit: 50)
            let (statement, exact, _) = try PostgresStatements(schema: database.schema).select(query)
            #expect(exact)
            let plan = try await TestBackend.withSession(database) { connection in
                let relation = PostgresStatements(schema: database.schema).relation("notes")
                try await connection.query(
                    PostgresQuery(unsafeSQL: "ANALYZE " + relation), logger: Logger(label: "test"))
                let rows = try await connection.query(
                    PostgresQuery(unsafeSQL: "EXPLAIN " + statement.sql, binds: statement.binds),
                    logger: Logger(label: "test"))
                var lines: [String] = []
                for try await row in rows { lines.append(try row.decode(String.self)) }
                return lines.joined(separator: "\n")
            }
            #expect(plan.contains("notes__scope"), "\(plan)")
            #expect(try await storage.read(query).count == 20)
        } catch {
            try? await storage.close()
            try? await TestBackend.dropSchema(of: database)
            throw error
        }
        try await storage.close()
        try await TestBackend.dropSchema(of: database)
    }
}
