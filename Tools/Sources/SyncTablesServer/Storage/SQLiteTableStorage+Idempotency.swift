@_spi(SyncTablesTools) import SyncTables

// Keyed writes on SQLite: the store's single writer runs every write transaction alone, so the record read
// inside the write's transaction is the last word on whether the key is taken.

extension SQLiteTableStorage {
    func idempotencyRecord(of request: IdempotentRequest, expiredBefore: Int64) async throws -> IdempotencyRecord? {
        let row: JSONObject?
        do {
            row = try await store.lookup(
                table: SQLiteIdempotencyTable.name, id: SQLiteIdempotencyTable.rowID(of: request))
        } catch StoreError.unknownTable {
            return nil  // no keyed write yet
        }
        return row.flatMap(SQLiteIdempotencyTable.record(from:)).flatMap { $0.recordedAt >= expiredBefore ? $0 : nil }
    }

    func change(
        table: String,
        id: String,
        recording: IdempotentRecording,
        _ decide: @Sendable (JSONObject?, WriteStamp) throws -> (RowChange, JSONObject)
    ) async throws -> JSONObject {
        let (item, written) = try await store.write { [stamps, blobReferencing] tx in
            try tx.defineTable(SQLiteIdempotencyTable.definition)
            if let record = try SQLiteIdempotencyTable.record(of: recording.request, in: tx),
                record.recordedAt >= recording.expiredBefore
            {
                throw IdempotencyKeyTaken(record: record)
            }
            let (item, written) = try Self.change(
                table: table, id: id, stamps: stamps, referencing: blobReferencing, decide, in: tx)
            try SQLiteIdempotencyTable.store(recording.record(of: item), of: recording.request, in: tx)
            return (item, written)
        }
        announcer.publish([announcer.announcement(table: table, row: written)])
        return item
    }

    func removeIdempotencyRecords(expiredBefore: Int64, limit: Int) async throws -> Int {
        guard try await store.tableDefinitions().contains(where: { $0.name == SQLiteIdempotencyTable.name }) else {
            return 0
        }
        return try await store.write { tx in
            let expired = try tx.read(SQLiteIdempotencyTable.expired(before: expiredBefore, limit: limit))
            let ids = expired.compactMap { row -> String? in
                if case .string(let id)? = row["id"] { id } else { nil }
            }
            return try tx.delete(table: SQLiteIdempotencyTable.name, ids: ids)
        }
    }
}
