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
    /// Throws ``StoreError/invalidTableName(_:)`` for names that are not identifiers.
    func defineTable(_ definition: TableDefinition) async throws

    /// The definitions of every table in the store, system tables included.
    func tableDefinitions() async throws -> [TableDefinition]

    /// The rows matching a query, in its order.
    func read(_ query: StoreQuery) async throws -> [JSONObject]

    /// The rows matching a query, in its order, each as compact JSON text with sorted keys (the form
    /// `JSONObject.jsonBytes` writes): for passing rows on, as a server does, without decoding them.
    ///
    /// The default implementation encodes what ``read(_:)`` returns. `SQLiteStore` returns the stored
    /// text as it is, which it wrote in that form; it does not parse it again, so a file edited by hand
    /// can yield text that ``read(_:)`` would report as ``StoreError/invalidStoredData(table:id:message:)``.
    func readJSON(_ query: StoreQuery) async throws -> [[UInt8]]

    /// The number of rows matching a query's filter (limit and offset apply).
    func count(_ query: StoreQuery) async throws -> Int

    /// The row with this id, or `nil`.
    func lookup(table: String, id: String) async throws -> JSONObject?

    /// Runs `body` as one atomic transaction and returns its result.
    ///
    /// If `body` throws, every change it made is rolled back and the error is rethrown. The transaction
    /// handle must not escape the closure.
    func write<Result: Sendable>(_ body: @Sendable (any StoreTransaction) throws -> Result) async throws -> Result

    /// Releases the store's resources. Later calls throw ``StoreError/closed``.
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
    public func readJSON(_ query: StoreQuery) async throws -> [[UInt8]] {
        try await read(query).map(\.jsonBytes)
    }
}

/// The reads and writes available inside ``LocalStore/write(_:)``; every change commits with the rest.
public protocol StoreTransaction {
    /// Creates or extends a table within the transaction.
    func defineTable(_ definition: TableDefinition) throws
    /// The rows matching a query, including changes made earlier in this transaction.
    func read(_ query: StoreQuery) throws -> [JSONObject]
    /// The number of rows matching a query.
    func count(_ query: StoreQuery) throws -> Int
    /// The row with this id, or `nil`.
    func lookup(table: String, id: String) throws -> JSONObject?
    /// Inserts each item, or replaces the whole stored row when its `id` exists.
    ///
    /// Every item must carry a valid string `id`; otherwise ``StoreError/missingID(table:)`` is thrown.
    func upsert(table: String, items: [JSONObject]) throws
    /// Inserts rows for ids that are not stored yet, all or none: when any item's `id` is stored already,
    /// or two items share one, nothing changes and the result is `false`.
    ///
    /// The default looks every id up first, then calls ``upsert(table:items:)``. `SQLiteStore` lets the
    /// table's key refuse a stored id instead, so a batch of new items costs no lookups. Every item must
    /// carry a valid string `id`; otherwise ``StoreError/missingID(table:)`` is thrown.
    func insertNew(table: String, items: [JSONObject]) throws -> Bool
    /// ``insertNew(table:items:)`` with each item's canonical JSON text serialized already:
    /// `canonicalJSON[i]` is `items[i].jsonBytes`. A store that keeps that text (as `SQLiteStore` does)
    /// writes it as given, so the caller can serialize on another thread while the store writes; the
    /// default ignores it, and so does every store when the list does not have one text per item.
    /// `SQLiteStore` also takes the form it stores, the same text without the long strings it keeps in
    /// their columns only (what it reads back is the same either way).
    func insertNew(table: String, items: [JSONObject], canonicalJSON: [[UInt8]]) throws -> Bool
    /// ``insertNew(table:items:canonicalJSON:)`` and ``queueNewOperations(_:)`` in one step, all or none:
    /// `operations[i]` is queued for `items[i]`, which it names. `false`, changing nothing, when either would
    /// refuse. An empty `canonicalJSON` means none was serialized.
    ///
    /// The default makes the two calls. `SQLiteStore` writes each row with its operation's sequence on it,
    /// which is how it finds an item's operation without an index on the queue.
    func insertNew(
        table: String, items: [JSONObject], canonicalJSON: [[UInt8]], queueing operations: [PendingOperation]
    ) throws -> Bool
    /// Deletes the rows with these ids; absent ids are ignored. Returns how many rows were deleted.
    @discardableResult
    func delete(table: String, ids: [String]) throws -> Int
    /// Deletes the rows matching the query's filter; returns how many were deleted.
    @discardableResult
    func delete(_ query: StoreQuery) throws -> Int

    // MARK: Operation queue storage
    //
    // The context keeps its operation queue through these. Every one has a default implementation that
    // stores operations as JSON rows of the `__operations` table through the members above, so a store
    // needs none of them to work; `SQLiteStore` keeps the queue in a relational table of its own instead,
    // because every local write and every pushed operation passes through it.

    /// Creates the queue's storage; the context calls it once, when it first opens the store.
    func prepareOperationQueue() throws
    /// The operation queued for an item (at most one exists), or `nil`.
    func queuedOperation(table: String, itemId: String) throws -> PendingOperation?
    /// The queued operations `selection` selects, in ascending sequence.
    func queuedOperations(_ selection: OperationSelection) throws -> [PendingOperation]
    /// How many queued operations `selection` selects (its limit applies).
    func countQueuedOperations(_ selection: OperationSelection) throws -> Int
    /// The highest sequence among queued operations, or `nil` when the queue is empty.
    func highestQueuedSequence() throws -> Int?
    /// Stores operations: each replaces the operation queued for its item, if any.
    func saveQueuedOperations(_ operations: [PendingOperation]) throws
    /// Removes the operations queued for these operations' items.
    func removeQueuedOperations(_ operations: [PendingOperation]) throws
    /// Queues operations for items that have none queued, all or none: when any of their items has an
    /// operation queued already, or two operations name the same item, nothing changes and the result is
    /// `false`.
    func queueNewOperations(_ operations: [PendingOperation]) throws -> Bool
}
