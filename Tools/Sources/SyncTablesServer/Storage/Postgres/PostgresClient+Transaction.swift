import Logging
import PostgresNIO

extension PostgresClient {
    /// Runs `body` in a transaction on one pooled connection: COMMIT when it returns, ROLLBACK when it throws
    /// (its error is the one thrown, unlike PostgresNIO's `withTransaction`, which wraps it).
    func transaction<Result: Sendable>(
        logger: Logger, _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await withConnection { connection in
            try await connection.query("BEGIN", logger: logger)
            let result: Result
            do {
                result = try await body(connection)
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
            try await connection.query("COMMIT", logger: logger)
            return result
        }
    }
}
