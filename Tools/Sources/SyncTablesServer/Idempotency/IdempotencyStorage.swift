import SyncTables

/// Where a storage keeps the records of keyed writes (`__idempotency`): a relation of the same database as
/// the tables, so a write and its record commit together, and instances sharing a database share the records.
protocol IdempotencyStorage: Sendable {
    /// The record of `request`'s key in its scope made at or after `expiredBefore`, or `nil`.
    func idempotencyRecord(of request: IdempotentRequest, expiredBefore: Int64) async throws -> IdempotencyRecord?

    /// ``TableStorage/change(table:id:_:)`` for a keyed write: in the same transaction, records the answer
    /// to `recording`'s request once `decide` succeeded.
    ///
    /// Throws ``IdempotencyKeyTaken`` (changing nothing) when a live record holds the key by then; `decide`
    /// throwing rolls the record back with the write.
    func change(
        table: String,
        id: String,
        recording: IdempotentRecording,
        _ decide: @Sendable (_ existing: JSONObject?, _ stamp: WriteStamp) throws -> (RowChange, JSONObject)
    ) async throws -> JSONObject

    /// Removes at most `limit` records made before `expiredBefore`, and returns how many it removed.
    func removeIdempotencyRecords(expiredBefore: Int64, limit: Int) async throws -> Int
}
