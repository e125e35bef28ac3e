// SPI: `SQLiteStore`'s reads for the server, `propertyNames(table:)` and `readJSON(slices:limit:)`, and the
// slice reading of one keyset page, `[StoreQuery].rows(limit:_:)`.
@_spi(SyncTablesTools) import SyncTables

/// Tables in a `SQLiteStore` (a SQLite file or memory): one process serves them, and the store's single
/// writer orders every write, so stamps issued inside a write transaction follow commit order.
///
/// Writes are announced to the change feeds once they committed, in this process.
struct SQLiteTableStorage: TableStorage {
    let store: SQLiteStore
    /// Whether ``close()`` closes the store (it opened it), or leaves that to whoever passed it in.
    let ownsStore: Bool
    var stamps = WriteStampIssuer()
    var announcer = ChangeAnnouncer.silent
    /// Which rows reference blobs; each write keeps its row's references in its own transaction.
    var blobReferencing = BlobReferencing.none

    /// No scope index here: SQLite plans without statistics, and took an index on the owner column for
    /// every scoped query, also where it matches most rows and defeats the id order a page reads in
    /// (`sync-bench identity`: a filtered page at a quarter of the open server's rate). One instance's tables
    /// stay small enough to read a user's rows in `updatedAt` order.
    func prepareTable(_ table: String, scopeColumn: String?) async throws -> Set<String> {
        try await store.defineTable(TableDefinition(name: table, indexes: [["updatedAt", "id"]]))
        return try await store.propertyNames(table: table)
    }

    func lookup(table: String, id: String) async throws -> JSONObject? {
        try await store.lookup(table: table, id: id)
    }

    func change<Result: Sendable>(
        table: String,
        id: String,
        _ decide: @Sendable (JSONObject?, WriteStamp) throws -> (RowChange, Result)
    ) async throws -> Result {
        let (result, written) = try await store.write { [stamps, blobReferencing] tx in
            try Self.change(table: table, id: id, stamps: stamps, referencing: blobReferencing, decide, in: tx)
        }
        announcer.publish([announcer.announcement(table: table, row: written)])
        return result
    }

    /// One write's read-decide-write inside the caller's transaction; also returns the row it wrote (for a
    /// delete, the row it removed), whose change the caller announces once committed.
    static func change<Result>(
        table: String,
        id: String,
        stamps: WriteStampIssuer,
        referencing: BlobReferencing,
        _ decide: (JSONObject?, WriteStamp) throws -> (RowChange, Result),
        in tx: any StoreTransaction
    ) throws -> (Result, written: JSONObject?) {
        let existing = try tx.lookup(table: table, id: id)
        let (change, result) = try decide(existing, stamps.next())
        switch change {
        case .upsert(let item):
            try tx.upsert(table: table, items: [item])
            try SQLiteBlobTables.replaceReferences(
                table: table, id: id, existing: existing, written: item, referencing: referencing, in: tx)
            return (result, item)
        case .delete:
            try tx.delete(table: table, ids: [id])
            try SQLiteBlobTables.replaceReferences(
                table: table, id: id, existing: existing, written: nil, referencing: referencing, in: tx)
            return (result, existing)
        }
    }

    func readJSON(_ query: StoreQuery) async throws -> [[UInt8]] {
        try await store.readJSON(query)
    }

    func read(_ query: StoreQuery) async throws -> [JSONObject] {
        try await store.read(query)
    }

    /// In one snapshot: one read transaction of the store.
    func readJSON(slices: [StoreQuery], limit: Int) async throws -> [[UInt8]] {
        try await store.readJSON(slices: slices, limit: limit)
    }

    /// In one snapshot: one transaction of the store.
    func read(slices: [StoreQuery], limit: Int) async throws -> [JSONObject] {
        try await store.write { transaction in try slices.rows(limit: limit, transaction.read) }
    }

    func count(_ query: StoreQuery) async throws -> Int {
        try await store.count(query)
    }

    func seed(table: String, items: [JSONObject], stamp: @Sendable (inout JSONObject, WriteStamp) -> Void)
        async throws -> [JSONObject]
    {
        let stored = items.map { item in
            var item = item
            stamp(&item, stamps.next())
            return item
        }
        try await store.write { [stored] tx in try tx.upsert(table: table, items: stored) }
        announcer.publish(announcer.announcements(table: table, rows: stored))
        return stored
    }

    /// Also forgets the recorded keyed writes, whose answers name the rows removed, and the rows' blob
    /// references, and resets the change feeds.
    func removeAllRows() async throws {
        let tables = try await store.tableDefinitions().map(\.name).filter {
            !$0.hasPrefix("__") || $0 == SQLiteIdempotencyTable.name
        }
        try await store.write { tx in
            for table in tables { try tx.delete(StoreQuery(table: table)) }
            try SQLiteBlobTables.removeAllReferences(in: tx)
        }
        announcer.publishReset(reason: "every row was removed")
    }

    func checkReady() async throws {
        _ = try await store.tableDefinitions()
    }

    func close() async throws {
        if ownsStore { try await store.close() }
    }
}
