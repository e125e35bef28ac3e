import SyncTables

/// Where a server keeps its tables: embedded SQLite (``SQLiteTableStorage``) or a PostgreSQL database shared
/// by several server instances (``PostgresTableStorage``).
///
/// Every write is one read-decide-write of a single row, atomic against every other write: the storage reads
/// the row, hands it to the caller's decision together with the stamp the write would carry, and applies the
/// decision before anyone else can change the row. Stamps follow commit order within a table (see
/// <doc:ChangeOrder>), so a client that pulled up to some `updatedAt` never misses a row committed later.
/// Keyed writes record their answers in the same transaction (``IdempotencyStorage``), and so do the rows'
/// references to blobs (``BlobReferenceStorage``).
protocol TableStorage: IdempotencyStorage, BlobReferenceStorage {
    /// Creates the table when absent and returns the property names its rows already use.
    ///
    /// `scopeColumn` is the owner or claim column of a declared table: a backend may index it, so that one
    /// user's pull reads that user's rows and not the whole table's.
    func prepareTable(_ table: String, scopeColumn: String?) async throws -> Set<String>

    /// The row with this id, or `nil`.
    func lookup(table: String, id: String) async throws -> JSONObject?

    /// Reads the row with this id, lets `decide` choose what to do with it, and applies that atomically.
    ///
    /// `decide` gets the current row (or `nil`) and the stamp a write would carry; it may throw to refuse
    /// (nothing changes) and may run more than once when a concurrent insert of the same id wins the race.
    func change<Result: Sendable>(
        table: String,
        id: String,
        _ decide: @Sendable (_ existing: JSONObject?, _ stamp: WriteStamp) throws -> (RowChange, Result)
    ) async throws -> Result

    /// The rows matching a query, in its order, as compact JSON text with sorted keys.
    func readJSON(_ query: StoreQuery) async throws -> [[UInt8]]

    /// The rows matching a query, in its order.
    func read(_ query: StoreQuery) async throws -> [JSONObject]

    /// The rows of `slices` in turn, at most `limit` in all (the slices' own limits are ignored), as
    /// ``readJSON(_:)`` gives them: the slices of one keyset page.
    ///
    /// They are read in one snapshot, so a row that changes between two slice reads cannot be in both.
    func readJSON(slices: [StoreQuery], limit: Int) async throws -> [[UInt8]]

    /// The rows of `slices` in turn, at most `limit` in all, as ``readJSON(slices:limit:)`` reads them.
    func read(slices: [StoreQuery], limit: Int) async throws -> [JSONObject]

    /// The number of rows matching a query's filter.
    func count(_ query: StoreQuery) async throws -> Int

    /// Writes rows as given, replacing rows with the same ids (test controls); `stamp` fills missing
    /// system properties.
    func seed(table: String, items: [JSONObject], stamp: @Sendable (inout JSONObject, WriteStamp) -> Void)
        async throws -> [JSONObject]

    /// Deletes every row of every table and every record of a keyed write (test controls).
    func removeAllRows() async throws

    /// Returns when the storage can serve requests (the database answers and the server's relations exist);
    /// throws why not otherwise. `/ready` asks it.
    func checkReady() async throws

    /// Releases the storage's resources; nothing may be called afterwards.
    func close() async throws
}

/// What one write does to its row.
enum RowChange: Sendable {
    /// Stores this item (insert or replace).
    case upsert(JSONObject)
    /// Removes the row.
    case delete
}
