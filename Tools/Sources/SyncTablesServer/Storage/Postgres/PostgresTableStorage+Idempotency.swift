import PostgresNIO
import SyncTables
@_spi(SyncTablesTools) import SyncTablesCore

// Keyed writes on PostgreSQL: the key is claimed as the write's first step and its answer stored as its last,
// in the write's transaction (see `PostgresStatements+Idempotency`).

extension PostgresTableStorage {
    func idempotencyRecord(of request: IdempotentRequest, expiredBefore: Int64) async throws -> IdempotencyRecord? {
        try await Self.describingErrors {
            let rows = try await client.query(
                statements.idempotencyRecord(of: request, expiredBefore: expiredBefore), logger: logger)
            return try await Self.record(from: rows)
        }
    }

    func change(
        table: String,
        id: String,
        recording: IdempotentRecording,
        _ decide: @Sendable (JSONObject?, WriteStamp) throws -> (RowChange, JSONObject)
    ) async throws -> JSONObject {
        try await Self.describingErrors {
            try await changeRow(
                table: table, id: id,
                claim: { [self] connection in try await claimKey(recording, connection) },
                complete: { [self] item, connection in
                    let answer = recording.record(of: item).answer
                    try await connection.query(
                        statements.recordIdempotentAnswer(answer, of: recording.request), logger: logger)
                },
                decide)
        }
    }

    func removeIdempotencyRecords(expiredBefore: Int64, limit: Int) async throws -> Int {
        try await Self.describingErrors {
            let rows = try await client.query(
                statements.removeIdempotencyRecords(expiredBefore: expiredBefore, limit: limit), logger: logger)
            var removed = 0
            for try await _ in rows { removed += 1 }
            return removed
        }
    }

    /// Takes the key, or throws ``IdempotencyKeyTaken`` with the live record that holds it (committed: the
    /// claim waited for the transaction that made it).
    private func claimKey(_ recording: IdempotentRecording, _ connection: PostgresConnection) async throws {
        let claimed = try await connection.query(statements.claimIdempotencyKey(recording), logger: logger)
        var taken = true
        for try await _ in claimed { taken = false }
        guard taken else { return }
        let rows = try await connection.query(
            statements.idempotencyRecord(of: recording.request, expiredBefore: recording.expiredBefore),
            logger: logger)
        guard let record = try await Self.record(from: rows) else {
            throw PostgresStorageError.database(message: "an idempotency key is held by no record", sqlState: nil)
        }
        throw IdempotencyKeyTaken(record: record)
    }

    /// The record in the first row of `method, path, status, item, recorded_ms`, if any.
    private static func record(from rows: PostgresRowSequence) async throws -> IdempotencyRecord? {
        for try await row in rows {
            let (method, path, status, item, recordedAt) = try row.decode(
                (String, String, Int64?, String?, Int64).self)
            guard let status else { return nil }  // claimed by a transaction that has not committed
            return IdempotencyRecord(
                method: method, path: path,
                answer: WriteAnswer(status: Int(status), item: try item.map(object)), recordedAt: recordedAt)
        }
        return nil
    }
}
