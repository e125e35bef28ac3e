/// The handle a ``SQLiteStore`` transaction body works with; every call joins the open transaction.
final class SQLiteTransaction: StoreTransactionFastPaths {
    private let storage: SQLiteStorage
    var isActive = true

    init(storage: SQLiteStorage) {
        self.storage = storage
    }

    func defineTable(_ definition: TableDefinition) throws {
        try run { try storage.defineTable(definition) }
    }

    func read(_ query: StoreQuery) throws -> [JSONObject] {
        try run { try storage.read(query) }
    }

    func count(_ query: StoreQuery) throws -> Int {
        try run { try storage.count(query) }
    }

    func lookup(table: String, id: String) throws -> JSONObject? {
        try run { try storage.lookup(table: table, id: id) }
    }

    func upsert(table: String, items: [JSONObject]) throws {
        try run { try storage.upsert(table: table, items: items) }
    }

    func insertNew(table: String, items: [JSONObject]) throws -> Bool {
        try run { try storage.insertNew(table: table, items: items, canonicalJSON: nil) }
    }

    func insertNew(table: String, items: [JSONObject], canonicalJSON: [[UInt8]]) throws -> Bool {
        try run { try storage.insertNew(table: table, items: items, canonicalJSON: canonicalJSON) }
    }

    func insertNew(
        table: String, items: [JSONObject], canonicalJSON: [[UInt8]], queueing operations: [PendingOperation]
    )
        throws -> Bool
    {
        try run {
            try storage.insertNewQueued(
                table: table, items: items, canonicalJSON: canonicalJSON, operations: operations)
        }
    }

    @discardableResult
    func delete(table: String, ids: [String]) throws -> Int {
        try run { try storage.delete(table: table, ids: ids) }
    }

    @discardableResult
    func delete(_ query: StoreQuery) throws -> Int {
        try run { try storage.delete(query) }
    }

    /// Refuses use after the write ended (the connection may be busy elsewhere by then) and maps errors.
    // MARK: Operation queue (a relational table of its own, see SQLiteOperationTable)

    func prepareOperationQueue() throws {
        try run {}  // the catalog creates the table when the store opens
    }

    func queuedOperation(table: String, itemId: String) throws -> PendingOperation? {
        try run { try SQLiteOperationTable.operation(table: table, itemId: itemId, in: storage) }
    }

    func queuedOperations(_ selection: OperationSelection) throws -> [PendingOperation] {
        try run { try SQLiteOperationTable.operations(selection, in: storage) }
    }

    func countQueuedOperations(_ selection: OperationSelection) throws -> Int {
        try run { try SQLiteOperationTable.count(selection, in: storage) }
    }

    func highestQueuedSequence() throws -> Int? {
        try run { try SQLiteOperationTable.highestSequence(in: storage.database) }
    }

    func saveQueuedOperations(_ operations: [PendingOperation]) throws {
        try run { try SQLiteOperationTable.save(operations, in: storage) }
    }

    func removeQueuedOperations(_ operations: [PendingOperation]) throws {
        try run { try SQLiteOperationTable.remove(operations, in: storage) }
    }

    func queueNewOperations(_ operations: [PendingOperation]) throws -> Bool {
        try run { try SQLiteOperationTable.insertNew(operations, in: storage) }
    }

    /// Exact: the write transaction reloaded the catalog when it began, and holds the write lock.
    func definedTables() throws -> [TableDefinition]? {
        try run { try storage.tableDefinitions() }
    }

    private func run<Result>(_ body: () throws -> Result) throws -> Result {
        guard isActive else { throw StoreError.transactionFinished }
        return try mappingStoreErrors(body)
    }
}
