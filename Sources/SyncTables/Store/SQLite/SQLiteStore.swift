import Foundation
@_spi(SyncTablesTools) import SyncTablesSQLite

/// A ``LocalStore`` in one SQLite database file: durable, crash-safe (WAL journal), fast.
///
/// Each table is an SQL table with one column per top-level property, in which filters, orderings and
/// indexes work; every value is kept once, in its column, and every read gives back exactly the item that
/// was written. The store is an actor running on its own thread, so blocking SQLite calls never hold up
/// Swift's shared thread pool.
///
/// ```swift
/// let store = try SQLiteStore(path: "todo.sqlite")
/// try await store.defineTable(TableDefinition(name: "TodoItem", indexes: [["complete"]]))
/// try await store.write { try $0.upsert(table: "TodoItem", items: [["id": "a", "text": "Buy milk"]]) }
/// let open = try await store.read(StoreQuery(table: "TodoItem", filter: .comparison(.equal, .property("complete"), .value(false))))
/// ```
public actor SQLiteStore: LocalStore {
    private let executor: SerialThreadExecutor
    private var storage: SQLiteStorage?
    /// Serves ``lookup(table:id:)`` on the caller's thread; `nil` for an in-memory database.
    private nonisolated let lookupConnection: SQLiteLookupConnection?
    /// Checkpoints the write-ahead log off the store's thread; `nil` for an in-memory database.
    nonisolated let checkpointer: SQLiteCheckpointer?
    /// The database file; `nil` in memory.
    nonisolated let fileLocation: String?

    /// The actor runs every call on its dedicated thread.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// The store's own thread as a task executor; see ``LocalStore/preferredTaskExecutor``.
    public nonisolated var preferredTaskExecutor: (any TaskExecutor)? {
        executor
    }

    /// Opens the database file at `path`, creating it (and its tables) when needed.
    ///
    /// - Throws: ``StoreError/corrupt(message:)`` for a file that is not a database or is damaged,
    ///   ``StoreError/truncated(message:)`` for a file cut short and ``StoreError/keyRequired`` for what looks like an
    ///   encrypted database (no SQLite header, a whole number of pages), each leaving the file untouched;
    ///   ``StoreError/cannotOpen(path:message:)`` when the file cannot be created or opened, and
    ///   ``StoreError/readOnly(message:)`` when it cannot be written.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        try self.init(path: path, configuration: configuration, prepareConnection: { _ in })
    }

    /// Opens a store and runs `prepareConnection` on the new connection before any other statement, for
    /// example to give SQLCipher its key.
    @_spi(SyncTablesTools) public init(
        path: String,
        configuration: Configuration = Configuration(),
        prepareConnection: (Database) throws -> Void
    ) throws {
        let storage = try Self.openStorage(path: path, configuration: configuration, prepare: prepareConnection)
        self.storage = storage
        self.fileLocation = path.isEmpty || path == ":memory:" || path.hasPrefix("file::memory:") ? nil : path
        self.executor = SerialThreadExecutor(name: "SyncTablesStore")
        // Only a shortcut: without it every lookup runs on the store's own connection.
        self.lookupConnection =
            try? SQLiteLookupConnection(
                path: path, busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds,
                memoryMapBytes: configuration.memoryMapBytes, prepare: prepareConnection)
        lookupConnection?.setTables(Self.lookupTables(storage.catalog), revision: storage.catalog.revision)
        // Also only a shortcut: without it SQLite checkpoints inside commits, as it does by default.
        self.checkpointer =
            try? SQLiteCheckpointer(
                path: path, busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds, prepare: prepareConnection)
        if let checkpointer {
            try mappingStoreErrors { try storage.database.setWALCommitHook(checkpointer.commitHook()) }
        }
    }

    /// A store in a private in-memory database, gone when the store is released.
    ///
    /// - Throws: ``StoreError/database(code:message:sql:)``, ``StoreError/busy(message:)`` or
    ///   ``StoreError/full(message:)`` when SQLite fails.
    public static func inMemory(configuration: Configuration = Configuration()) throws -> SQLiteStore {
        try SQLiteStore(path: ":memory:", configuration: configuration)
    }

    deinit {
        executor.shutdown()
        checkpointer?.stop()
    }

    // MARK: LocalStore

    /// Creates or extends a table.
    ///
    /// - Throws: ``StoreError/invalidTableName(_:)`` for a name that is not an identifier,
    ///   ``StoreError/database(code:message:sql:)``, ``StoreError/busy(message:)`` or ``StoreError/full(message:)``
    ///   when SQLite fails, ``StoreError/closed`` after ``close()``.
    public func defineTable(_ definition: TableDefinition) throws {
        defer { publishTables() }
        try mappingStoreErrors { try openStorage().defineTable(definition) }
    }

    /// The definitions of every table.
    ///
    /// - Throws: ``StoreError/database(code:message:sql:)``, ``StoreError/busy(message:)`` or
    ///   ``StoreError/full(message:)`` when SQLite fails, ``StoreError/closed`` after ``close()``.
    public func tableDefinitions() throws -> [TableDefinition] {
        defer { publishTables() }
        return try mappingStoreErrors { try openStorage().tableDefinitions() }
    }

    /// The rows matching a query, in its order.
    ///
    /// - Throws: ``StoreError/unknownTable(_:)`` for a table never defined, ``StoreError/invalidQuery(message:)`` for a
    ///   query that cannot run, ``StoreError/invalidStoredData(table:id:message:)`` for a row that does not decode,
    ///   ``StoreError/database(code:message:sql:)``, ``StoreError/busy(message:)`` or ``StoreError/full(message:)``
    ///   when SQLite fails, ``StoreError/closed`` after ``close()``.
    public func read(_ query: StoreQuery) throws -> [JSONObject] {
        defer { publishTables() }
        return try mappingStoreErrors { try openStorage().read(query) }
    }

    /// The rows matching a query, each as its stored JSON text (see ``LocalStore/readJSON(_:)``).
    ///
    /// - Throws: ``StoreError/unknownTable(_:)`` for a table never defined, ``StoreError/invalidQuery(message:)`` for a
    ///   query that cannot run, ``StoreError/database(code:message:sql:)``, ``StoreError/busy(message:)`` or
    ///   ``StoreError/full(message:)`` when SQLite fails, ``StoreError/closed`` after ``close()``.
    public func readJSON(_ query: StoreQuery) throws -> [[UInt8]] {
        defer { publishTables() }
        return try mappingStoreErrors { try openStorage().readJSON(query) }
    }

    /// The rows of several queries in turn, at most `limit` in all (the queries' own limits are ignored),
    /// each as its stored JSON text, all read in one snapshot: the slices of one `sync-server` keyset page,
    /// which a write committed between two slice reads could otherwise put in the page twice.
    @_spi(SyncTablesTools) public func readJSON(slices: [StoreQuery], limit: Int) throws -> [[UInt8]] {
        defer { publishTables() }
        return try mappingStoreErrors {
            let storage = try openStorage()
            return try storage.reading { try slices.rows(limit: limit, storage.readJSON) }
        }
    }

    /// The number of rows a query selects.
    ///
    /// - Throws: ``StoreError/unknownTable(_:)`` for a table never defined, ``StoreError/invalidQuery(message:)`` for a
    ///   query that cannot run, ``StoreError/database(code:message:sql:)``, ``StoreError/busy(message:)`` or
    ///   ``StoreError/full(message:)`` when SQLite fails, ``StoreError/closed`` after ``close()``.
    public func count(_ query: StoreQuery) throws -> Int {
        defer { publishTables() }
        return try mappingStoreErrors { try openStorage().count(query) }
    }

    /// The row with this id, or `nil`.
    ///
    /// A file store answers on the caller's thread through a second connection that sees the last commit.
    ///
    /// - Throws: ``StoreError/unknownTable(_:)`` for a table never defined,
    ///   ``StoreError/invalidStoredData(table:id:message:)`` for a row that does not decode,
    ///   ``StoreError/database(code:message:sql:)``, ``StoreError/busy(message:)`` or ``StoreError/full(message:)``
    ///   when SQLite fails, ``StoreError/closed`` after ``close()``.
    public nonisolated func lookup(table: String, id: String) async throws -> JSONObject? {
        switch lookupConnection?.lookup(table: table, id: id) ?? .unavailable {
        case .absent:
            return nil
        case .found(let row):
            // Stored data that does not read (or a column another process added since the connection's copy
            // of the catalog) goes to the store's own path, which reloads the catalog or reports the error.
            if let object = try? row.object() { return object }
        case .unavailable:
            break
        }
        return try await lookupOnStore(table: table, id: id)
    }

    private func lookupOnStore(table: String, id: String) throws -> JSONObject? {
        // The lookup connection sends here what its copy of the catalog does not cover (a table or column
        // another process added): the check below reloads the catalog, and the copy is brought up to date.
        defer { publishTables() }
        return try mappingStoreErrors { try openStorage().lookup(table: table, id: id) }
    }

    /// Runs `body` in one SQLite transaction (`BEGIN IMMEDIATE`); rolls back everything if it throws.
    ///
    /// - Throws: What `body` throws (after rolling everything back), ``StoreError/database(code:message:sql:)``,
    ///   ``StoreError/busy(message:)`` or ``StoreError/full(message:)`` when SQLite fails, ``StoreError/closed`` after
    ///   ``close()``.
    public func write<Result: Sendable>(_ body: @Sendable (any StoreTransaction) throws -> Result) throws -> Result {
        let storage = try openStorage()
        let transaction = SQLiteTransaction(storage: storage)
        defer {
            transaction.isActive = false
            publishTables()
        }
        return try mappingStoreErrors { try storage.atomically { try body(transaction) } }
    }

    /// Closes the database; later calls throw ``StoreError/closed``.
    ///
    /// - Throws: ``StoreError/database(code:message:sql:)``, ``StoreError/busy(message:)`` or
    ///   ``StoreError/full(message:)`` when SQLite fails to close the database.
    public func close() throws {
        guard let storage else { return }
        self.storage = nil
        lookupConnection?.close()
        // The store's connection closes last, so it checkpoints the whole log and removes it.
        checkpointer?.stop()
        try mappingStoreErrors { try storage.database.close() }
    }

    /// Runs `body` on the open connection, on the store's thread (for example to change SQLCipher's key).
    @_spi(SyncTablesTools) public func withDatabase<Result: Sendable>(_ body: (Database) throws -> Result) throws
        -> Result
    {
        let database = try openStorage().database
        // The body may change what a connection needs (SQLCipher's key): lookups go back to this connection,
        // and checkpoints into its commits.
        lookupConnection?.close()
        checkpointer?.stop()
        return try mappingStoreErrors { try body(database) }
    }

    /// Tells the lookup connection about tables and columns added since it last heard (neither is ever
    /// dropped).
    private func publishTables() {
        guard let lookupConnection, let storage, storage.catalog.revision != lookupConnection.revision else {
            return
        }
        lookupConnection.setTables(Self.lookupTables(storage.catalog), revision: storage.catalog.revision)
    }

    private static func lookupTables(_ catalog: SQLiteCatalog) -> [String: SQLiteLookupConnection.Table] {
        catalog.tables.mapValues(SQLiteLookupConnection.Table.init)
    }

    // MARK: Opening

    func openStorage() throws(StoreError) -> SQLiteStorage {
        guard let storage else { throw StoreError.closed }
        return storage
    }

    private static func openStorage(
        path: String, configuration: Configuration, prepare: (Database) throws -> Void
    ) throws -> SQLiteStorage {
        let database: Database
        do {
            database = try Database(path: path)
        } catch {
            throw StoreError.cannotOpen(path: path, message: error.message)
        }
        return try mappingStoreErrors {
            try prepare(database)
            try database.setBusyTimeout(milliseconds: configuration.busyTimeoutMilliseconds)
            // Read before anything writes: a file that is not a database fails here and stays unchanged.
            try verifyReadable(database, path: path, keyed: false)
            if database.isReadOnly {
                throw StoreError.readOnly(message: "the database at \(path) cannot be written")
            }
            if path != ":memory:" { try database.execute("PRAGMA journal_mode = WAL") }
            try database.execute("PRAGMA synchronous = \(configuration.synchronous.rawValue)")
            try database.execute("PRAGMA cache_size = -\(max(0, configuration.cacheSizeKiB))")
            try database.execute("PRAGMA mmap_size = \(max(0, configuration.memoryMapBytes))")
            // Statement and savepoint journals in memory: every insert inside a transaction keeps one, and
            // on disk SQLCipher encrypted each journaled page (ten page encryptions per batched item).
            try database.execute("PRAGMA temp_store = MEMORY")
            return try SQLiteStorage(database: database)
        }
    }

    /// Reads the schema (the first statement that touches the file) and checks the file is not cut short; a
    /// failure is explained from the file's header and size (see ``SQLiteFileProbe``). `keyed` tells whether
    /// a key was given to the connection. Calling it again after it succeeded is harmless.
    @_spi(SyncTablesTools) public static func verifyReadable(_ database: Database, path: String, keyed: Bool) throws {
        if path != ":memory:", let truncation = SQLiteFileProbe.plainTruncation(path: path) { throw truncation }
        do {
            _ = try database.scalar("SELECT count(*) FROM sqlite_master")
            try checkNotTruncated(database, path: path)
        } catch let error as SQLiteError {
            throw path == ":memory:" ? StoreError(error) : SQLiteFileProbe.openFailure(error, path: path, keyed: keyed)
        }
    }

    /// A file shorter than the page count in its header lost data; SQLite would only notice when it reads
    /// the missing pages. This is the check for encrypted files, whose header only the engine can read (plain
    /// files were checked from their bytes before the first read). Skipped while a write-ahead log exists:
    /// then the header may be ahead of the file.
    private static func checkNotTruncated(_ database: Database, path: String) throws {
        guard path != ":memory:", !FileManager.default.fileExists(atPath: path + "-wal") else { return }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let fileSize = (attributes[.size] as? NSNumber)?.int64Value,
            case .integer(let pageCount) = try database.scalar("PRAGMA page_count"),
            case .integer(let pageSize) = try database.scalar("PRAGMA page_size")
        else { return }
        if fileSize < pageCount * pageSize {
            throw StoreError.truncated(message: "\(fileSize) bytes, the header says \(pageCount * pageSize)")
        }
    }
}
