import Foundation
import Logging
import PostgresNIO
@_spi(SyncTablesTools) import SyncTables
import SyncTablesServer

/// The baseline of the PostgreSQL server figures: the statements `sync-server` sends for an insert and for a
/// query page (``PostgresStatements``), sent straight through a PostgresNIO pool by as many concurrent
/// workers as the server figure has clients. No HTTP, no JSON parsing of results, no server.
struct PostgresRawLoop {
    let client: PostgresClient
    let statements: PostgresStatements
    private let logger = Logger(label: "sync-bench.postgres-raw")

    init(client: PostgresClient, schema: String) {
        self.client = client
        self.statements = PostgresStatements(schema: schema)
    }

    /// Inserts `items` into `table` (which must exist) the way a POST does: one transaction each that locks
    /// the row, takes the table's next position and stamp, and inserts the stamped row. Returns the seconds.
    func insert(_ items: [JSONObject], into table: String, workers: Int) async throws -> Double {
        let shares = items.shares(workers)
        let start = Stopwatch.now()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for share in shares {
                group.addTask {
                    for item in share { try await insertOne(item, into: table) }
                }
            }
            try await group.waitForAll()
        }
        return Stopwatch.seconds(since: start)
    }

    private func insertOne(_ submitted: JSONObject, into table: String) async throws {
        guard case .string(let id)? = submitted["id"] else { throw BenchError.unexpected("an item without id") }
        try await client.withConnection { connection in
            try await connection.query("BEGIN", logger: logger)
            for try await _ in try await connection.query(statements.lockRow(table: table, id: id), logger: logger) {
                throw BenchError.unexpected("row \(id) exists already")
            }
            var item = submitted
            for try await row in try await connection.query(statements.takePositions(table: table), logger: logger) {
                let (position, milliseconds, _) = try row.decode((Int64, Int64, [String]?).self)
                let timestamp = Timestamp(ticks: milliseconds * 10_000).iso8601Milliseconds
                item["version"] = .string(String(UInt64(bitPattern: position), radix: 16))
                item["createdAt"] = .string(timestamp)
                item["updatedAt"] = .string(timestamp)
                item["deleted"] = .bool(false)
                let insert = statements.storeRow(item, id: id, table: table, position: position, isNew: true)
                var inserted = false
                for try await _ in try await connection.query(insert, logger: logger) { inserted = true }
                guard inserted else { throw BenchError.unexpected("row \(id) was inserted by someone else") }
            }
            try await connection.query("COMMIT", logger: logger)
        }
    }

    /// Runs each query's `SELECT` (whose filter must compile exactly to SQL) and reads every row's body text.
    /// Returns the seconds.
    func select(_ queries: [StoreQuery], workers: Int) async throws -> Double {
        let statements = try queries.map { query in
            let (statement, exact, _) = try self.statements.select(query)
            guard exact else { throw BenchError.unexpected("the filter of \(query) does not compile to SQL exactly") }
            return statement
        }
        let shares = statements.shares(workers)
        let start = Stopwatch.now()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for share in shares {
                group.addTask {
                    for statement in share {
                        for try await row in try await client.query(statement, logger: logger) {
                            _ = try row.decode(String.self)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        return Stopwatch.seconds(since: start)
    }
}

extension Array where Element: Sendable {
    /// The elements dealt round-robin into `count` arrays (fewer when there are fewer elements).
    func shares(_ count: Int) -> [[Element]] {
        var shares = Array<[Element]>(repeating: [], count: Swift.max(1, Swift.min(count, self.count)))
        for (index, element) in enumerated() { shares[index % shares.count].append(element) }
        return shares
    }
}
