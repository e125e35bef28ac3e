/// A value the library keeps as one row of a system table (``SystemTables``): queued operations, their
/// errors and retry state, history entries, the engine's cycle backoff, the push lease.
///
/// Each record maps to its row one way: ``row`` writes it, ``init(_:)`` reads it back through ``SystemRow``,
/// which turns a missing or malformed field into ``SyncError/corruptSystemTable(table:message:)``.
protocol SystemRecord: Sendable {
    /// The system table the record lives in.
    static var table: String { get }
    /// The row that stores the record (its `id` included).
    var row: JSONObject { get }
    /// Reads a record back from its row.
    init(_ row: SystemRow) throws(SyncError)
}

extension SystemRecord {
    /// Reads a record back from a row of ``table``.
    init(row: JSONObject) throws(SyncError) {
        try self.init(SystemRow(row, table: Self.table))
    }

    /// Stores the record, replacing the row with its id.
    func save(in transaction: any StoreTransaction) throws {
        try transaction.upsert(table: Self.table, items: [row])
    }
}

/// A system record kept at most once, under a fixed id (the engine's backoff, the push lease).
protocol SingleSystemRecord: SystemRecord {
    /// The id of the record's row.
    static var id: String { get }
}

extension SingleSystemRecord {
    /// The stored record, if any.
    static func stored(in transaction: any StoreTransaction) throws -> Self? {
        try transaction.lookup(table: table, id: id).map { try Self(row: $0) }
    }

    /// Removes the stored record, if any.
    static func remove(in transaction: any StoreTransaction) throws {
        try transaction.delete(table: table, ids: [id])
    }
}
