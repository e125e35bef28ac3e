/// A ``LocalStore`` that keeps everything in memory: for tests, previews and throwaway sessions.
///
/// It follows exactly the same filter, ordering and transaction semantics as ``SQLiteStore`` (both pass
/// the shared conformance suite), so code tested against it behaves the same on disk.
///
/// ```swift
/// let store = MemoryStore()
/// try await store.defineTable(TableDefinition(name: "TodoItem"))
/// try await store.write { try $0.upsert(table: "TodoItem", items: [["id": "a", "text": "Buy milk"]]) }
/// ```
public actor MemoryStore: LocalStore, CapableStore {
    private var tables = MemoryTables()
    private var isClosed = false

    /// Creates an empty store.
    public init() {}

    /// Creates or extends a table.
    ///
    /// - Throws: ``StoreError/invalidTableName(_:)`` for a name that is not an identifier, ``StoreError/closed`` after
    ///   ``close()``.
    public func defineTable(_ definition: TableDefinition) throws {
        try checkOpen()
        try tables.define(definition)
    }

    /// The definitions of every table.
    ///
    /// - Throws: ``StoreError/closed`` after ``close()``.
    public func tableDefinitions() throws -> [TableDefinition] {
        try checkOpen()
        return tables.definitions
    }

    /// The rows matching a query, in its order.
    ///
    /// - Throws: ``StoreError/unknownTable(_:)`` for a table never defined, ``StoreError/invalidQuery(message:)`` for a
    ///   query that cannot run, ``StoreError/closed`` after ``close()``.
    public func read(_ query: StoreQuery) throws -> [JSONObject] {
        try checkOpen()
        return try tables.read(query)
    }

    /// The number of rows a query selects.
    ///
    /// - Throws: ``StoreError/unknownTable(_:)`` for a table never defined, ``StoreError/invalidQuery(message:)`` for a
    ///   query that cannot run, ``StoreError/closed`` after ``close()``.
    public func count(_ query: StoreQuery) throws -> Int {
        try checkOpen()
        return try tables.count(query)
    }

    /// The row with this id, or `nil`.
    ///
    /// - Throws: ``StoreError/unknownTable(_:)`` for a table never defined, ``StoreError/closed`` after ``close()``.
    public func lookup(table: String, id: String) throws -> JSONObject? {
        try checkOpen()
        return try tables.lookup(table: table, id: id)
    }

    /// The store knows every property its tables' rows ever had; it runs on the shared pool.
    package nonisolated var declaredCapabilities: StoreCapabilities {
        StoreCapabilities { [self] table in try await propertyNames(table: table) }
    }

    /// Every top-level property the table's rows have ever had.
    func propertyNames(table: String) throws -> Set<String> {
        try checkOpen()
        return tables.propertyNames(table: table)
    }

    /// Runs `body` in a transaction: its changes are kept when it returns and undone when it throws.
    ///
    /// - Throws: What `body` throws (after rolling its changes back), and ``StoreError/closed`` after ``close()``.
    public func write<Result: Sendable>(_ body: @Sendable (any StoreTransaction) throws -> Result) throws -> Result {
        try checkOpen()
        tables.beginTransaction()
        let transaction = MemoryTransaction(tables: tables)
        tables = MemoryTables()  // the transaction's tables are then the only ones, so writes change them in place
        defer {
            transaction.isActive = false
            tables = transaction.tables
        }
        do {
            let result = try body(transaction)
            transaction.tables.commit()
            return result
        } catch {
            transaction.tables.rollBack()
            throw error
        }
    }

    /// Drops everything; later calls throw ``StoreError/closed``.
    public func close() {
        isClosed = true
        tables = MemoryTables()
    }

    private func checkOpen() throws(StoreError) {
        if isClosed { throw StoreError.closed }
    }
}

/// The handle a ``MemoryStore`` transaction body works with: it holds the store's tables while the body runs.
final class MemoryTransaction: StoreTransaction {
    var tables: MemoryTables
    var isActive = true

    init(tables: MemoryTables) {
        self.tables = tables
    }

    func defineTable(_ definition: TableDefinition) throws {
        try checkActive()
        try tables.define(definition)
    }

    func read(_ query: StoreQuery) throws -> [JSONObject] {
        try checkActive()
        return try tables.read(query)
    }

    func count(_ query: StoreQuery) throws -> Int {
        try checkActive()
        return try tables.count(query)
    }

    func lookup(table: String, id: String) throws -> JSONObject? {
        try checkActive()
        return try tables.lookup(table: table, id: id)
    }

    func upsert(table: String, items: [JSONObject]) throws {
        try checkActive()
        try tables.upsert(table: table, items: items)
    }

    @discardableResult
    func delete(table: String, ids: [String]) throws -> Int {
        try checkActive()
        return try tables.delete(table: table, ids: ids)
    }

    @discardableResult
    func delete(_ query: StoreQuery) throws -> Int {
        try checkActive()
        return try tables.delete(query)
    }

    private func checkActive() throws(StoreError) {
        if !isActive { throw StoreError.transactionFinished }
    }
}
