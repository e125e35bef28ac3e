import PostgresNIO
@_spi(SyncTablesTools) import SyncTablesCore

// The records of keyed writes: one row per scope and key in `__idempotency`, which every instance on the
// schema shares. A keyed write claims its key first in its transaction, so a second request with the same key
// waits for the first to commit (and then replays its answer) or roll back (and then runs).

extension PostgresStatements {
    /// The relation of the records.
    var idempotency: String { "\(PostgresSQL.identifier(schema)).\"__idempotency\"" }

    /// Creates the relation when absent.
    var createIdempotency: [PostgresQuery] {
        [
            PostgresQuery(
                unsafeSQL: """
                    CREATE TABLE IF NOT EXISTS \(idempotency) (
                        scope text COLLATE "C" NOT NULL,
                        key text COLLATE "C" NOT NULL,
                        method text NOT NULL,
                        path text NOT NULL,
                        recorded_ms bigint NOT NULL,
                        status bigint,
                        item text,
                        PRIMARY KEY (scope, key))
                    """),
            PostgresQuery(
                unsafeSQL: """
                    CREATE INDEX IF NOT EXISTS "__idempotency__recorded" ON \(idempotency) (recorded_ms)
                    """),
        ]
    }

    /// The live record of a key: `method, path, status, item, recorded_ms`.
    func idempotencyRecord(of request: IdempotentRequest, expiredBefore: Int64) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(request.scope)
        binds.append(request.key)
        binds.append(expiredBefore)
        return PostgresQuery(
            unsafeSQL: """
                SELECT method, path, status, item, recorded_ms FROM \(idempotency)
                WHERE scope = $1 AND key = $2 AND recorded_ms >= $3
                """, binds: binds)
    }

    /// A keyed write's first step: takes the key (a new row, or an expired one's place) and returns a row;
    /// returns none when a live record holds it.
    func claimIdempotencyKey(_ recording: IdempotentRecording) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(recording.request.scope)
        binds.append(recording.request.key)
        binds.append(recording.request.method)
        binds.append(recording.request.path)
        binds.append(recording.recordedAt)
        binds.append(recording.expiredBefore)
        return PostgresQuery(
            unsafeSQL: """
                INSERT INTO \(idempotency) AS record (scope, key, method, path, recorded_ms)
                VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (scope, key) DO UPDATE SET method = EXCLUDED.method, path = EXCLUDED.path,
                    recorded_ms = EXCLUDED.recorded_ms, status = NULL, item = NULL
                WHERE record.recorded_ms < $6
                RETURNING 1
                """, binds: binds)
    }

    /// A keyed write's last step: the answer, in the claimed row.
    func recordIdempotentAnswer(_ answer: WriteAnswer, of request: IdempotentRequest) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(request.scope)
        binds.append(request.key)
        binds.append(Int64(answer.status))
        binds.append(answer.item.map { String(decoding: $0.jsonBytes, as: UTF8.self) })
        return PostgresQuery(
            unsafeSQL: "UPDATE \(idempotency) SET status = $3, item = $4 WHERE scope = $1 AND key = $2",
            binds: binds)
    }

    /// Removes at most `limit` records made before `expiredBefore`, passing over rows another instance is
    /// removing; returns one row per record removed.
    func removeIdempotencyRecords(expiredBefore: Int64, limit: Int) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(expiredBefore)
        binds.append(Int64(limit))
        return PostgresQuery(
            unsafeSQL: """
                DELETE FROM \(idempotency) WHERE (scope, key) IN (
                    SELECT scope, key FROM \(idempotency) WHERE recorded_ms < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)
                RETURNING 1
                """, binds: binds)
    }
}
