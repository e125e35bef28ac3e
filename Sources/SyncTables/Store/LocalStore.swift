/// The storage a ``SyncContext`` runs on: tables of JSON objects keyed by a string `id`.
///
/// A store knows nothing about sync. Items, the operation queue, push errors and incremental-pull
/// tokens are all rows in tables the context defines (system tables are prefixed `__`), so a store
/// only has to get tables, queries and transactions right. Every conforming store must pass
/// `SyncTablesStoreConformance`.
///
/// Reads see only committed data. ``write(_:)`` runs its body as one atomic transaction: either every
/// change in it is committed or none is, which is how a row and its queued operation, or a pulled page
/// and its token, are kept together.
///
/// ```swift
/// let store = try SQLiteStore(path: "todo.sqlite")
/// try await store.defineTable(TableDefinition(name: "TodoItem"))
/// try await store.write { tx in
///     try tx.upsert(table: "TodoItem", items: [["id": "a", "text": "Buy milk"]])
/// }
/// let open = try await store.read(StoreQuery(table: "TodoItem", filter: .comparison(.equal, .property("complete"), .value(false))))
/// ```
public protocol LocalStore: Sendable {
    /// Creates the table if it does not exist, or extends it (new indexes, date properties); never drops data.
    ///
    /// - Throws: What the store throws; the library's stores throw ``StoreError``: ``StoreError/invalidTableName(_:)``
    ///   for names that are not identifiers.
    func defineTable(_ definition: TableDefinition) async throws

    /// The definitions of every table in the store, system tables included.
    ///
    /// - Throws: What the store throws; the library's stores throw ``StoreError``.
    func tableDefinitions() async throws -> [TableDefinition]

    /// The rows matching a query, in its order.
    ///
    /// - Throws: What the store throws; the library's stores throw ``StoreError``, e.g. ``StoreError/unknownTable(_:)``
    ///   for a table never defined.
    func read(_ query: StoreQuery) async throws -> [JSONObject]

    /// The rows matching a query, in its order, each as compact JSON text with sorted keys (the form
    /// `JSONObject.jsonBytes` writes): for passing rows on, as a server does, without decoding them.
    ///
    /// The default implementation encodes what ``read(_:)`` returns. `SQLiteStore` returns the stored
    /// text as it is, which it wrote in that form; it does not parse it again, so a file edited by hand
    /// can yield text that ``read(_:)`` would report as ``StoreError/invalidStoredData(table:id:message:)``.
    ///
    /// - Throws: What ``read(_:)`` throws.
    func readJSON(_ query: StoreQuery) async throws -> [[UInt8]]

    /// The number of rows matching a query's filter (limit and offset apply).
    ///
    /// - Throws: What ``read(_:)`` throws.
    func count(_ query: StoreQuery) async throws -> Int

    /// The row with this id, or `nil`.
    ///
    /// - Throws: What ``read(_:)`` throws.
    func lookup(table: String, id: String) async throws -> JSONObject?

    /// Runs `body` as one atomic transaction and returns its result.
    ///
    /// If `body` throws, every change it made is rolled back and the error is rethrown. The transaction
    /// handle must not escape the closure.
    ///
    /// - Throws: What `body` throws, after rolling its changes back, and what the store throws when the transaction
    ///   fails (the library's stores: ``StoreError``).
    func write<Result: Sendable>(_ body: @Sendable (any StoreTransaction) throws -> Result) async throws -> Result

    /// Releases the store's resources. Later calls throw ``StoreError/closed``.
    ///
    /// - Throws: What the store throws; the library's stores throw ``StoreError``.
    func close() async throws

    /// The executor the store does its work on, if it has its own (``SQLiteStore`` runs on a dedicated thread).
    ///
    /// Code that makes many small calls in a row can run under
    /// `withTaskExecutorPreference(store.preferredTaskExecutor) { … }` so each call avoids two thread
    /// switches; an actor that mostly talks to the store can adopt it as its executor. `nil` by default.
    var preferredTaskExecutor: (any TaskExecutor)? { get }
}

extension LocalStore {
    /// Stores without an executor of their own run wherever their caller runs.
    public var preferredTaskExecutor: (any TaskExecutor)? { nil }

    /// Encodes the rows ``read(_:)`` returns.
    ///
    /// - Throws: What ``read(_:)`` throws.
    public func readJSON(_ query: StoreQuery) async throws -> [[UInt8]] {
        try await read(query).map(\.jsonBytes)
    }
}

/// The reads and writes available inside ``LocalStore/write(_:)``; every change commits with the rest.
///
/// The context builds everything on these members, its operation queue included (as rows of the
/// `__operations` table). ``SQLiteStore`` has faster paths of its own, which a transaction type that
/// wraps its transactions does not reach: wrap the store, not its transactions.
public protocol StoreTransaction {
    /// Creates or extends a table within the transaction.
    ///
    /// - Throws: What the store throws; the library's stores throw ``StoreError``, and
    ///   ``StoreError/transactionFinished`` for a handle used after its transaction.
    func defineTable(_ definition: TableDefinition) throws
    /// The rows matching a query, including changes made earlier in this transaction.
    ///
    /// - Throws: What the store throws; the library's stores throw ``StoreError``, and
    ///   ``StoreError/transactionFinished`` for a handle used after its transaction.
    func read(_ query: StoreQuery) throws -> [JSONObject]
    /// The number of rows matching a query.
    ///
    /// - Throws: What the store throws; the library's stores throw ``StoreError``, and
    ///   ``StoreError/transactionFinished`` for a handle used after its transaction.
    func count(_ query: StoreQuery) throws -> Int
    /// The row with this id, or `nil`.
    ///
    /// - Throws: What the store throws; the library's stores throw ``StoreError``, and
    ///   ``StoreError/transactionFinished`` for a handle used after its transaction.
    func lookup(table: String, id: String) throws -> JSONObject?
    /// Inserts each item, or replaces the whole stored row when its `id` exists. Every item must carry a
    /// valid string `id`.
    ///
    /// - Throws: ``StoreError/missingID(table:)`` for an item without a string `id`; otherwise what ``defineTable(_:)``
    ///   throws.
    func upsert(table: String, items: [JSONObject]) throws
    /// Deletes the rows with these ids; absent ids are ignored. Returns how many rows were deleted.
    ///
    /// - Throws: What the store throws; the library's stores throw ``StoreError``, and
    ///   ``StoreError/transactionFinished`` for a handle used after its transaction.
    @discardableResult
    func delete(table: String, ids: [String]) throws -> Int
    /// Deletes the rows matching the query's filter; returns how many were deleted.
    ///
    /// - Throws: What the store throws; the library's stores throw ``StoreError``, and
    ///   ``StoreError/transactionFinished`` for a handle used after its transaction.
    @discardableResult
    func delete(_ query: StoreQuery) throws -> Int
}
