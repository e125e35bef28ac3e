#if SQLCipher
    import CSQLCipher
#else
    import CSQLite
#endif

/// One SQLite connection: run SQL, reuse prepared statements, run transactions.
///
/// Not thread-safe by design: exactly one owner (an actor running on its own serial executor) uses it.
/// Extended result codes are on, so every ``SQLiteError`` carries the precise failure.
///
/// ```swift
/// let database = try Database(path: ":memory:")
/// try database.execute("CREATE TABLE t(x)")
/// try database.transaction {
///     let insert = try database.cachedStatement("INSERT INTO t(x) VALUES (?)")
///     try insert.bind(.integer(1), at: 1)
///     try insert.run()
/// }
/// ```
@_spi(SyncTablesTools) public final class Database {
    /// How a connection is opened.
    @_spi(SyncTablesTools) public struct OpenFlags: OptionSet, Sendable {
        /// The raw `SQLITE_OPEN_*` bits.
        @_spi(SyncTablesTools) public let rawValue: Int32
        /// Creates flags from raw bits.
        @_spi(SyncTablesTools) public init(rawValue: Int32) { self.rawValue = rawValue }
        /// Open for reading only.
        @_spi(SyncTablesTools) public static let readOnly = OpenFlags(rawValue: SQLITE_OPEN_READONLY)
        /// Open for reading and writing.
        @_spi(SyncTablesTools) public static let readWrite = OpenFlags(rawValue: SQLITE_OPEN_READWRITE)
        /// Create the file when it does not exist.
        @_spi(SyncTablesTools) public static let create = OpenFlags(rawValue: SQLITE_OPEN_CREATE)
        /// The connection is used by one thread at a time, so SQLite's own mutex is unnecessary.
        @_spi(SyncTablesTools) public static let noMutex = OpenFlags(rawValue: SQLITE_OPEN_NOMUTEX)
        /// The usual flags for a store: read, write, create, no per-connection mutex.
        @_spi(SyncTablesTools) public static let standard: OpenFlags = [.readWrite, .create, .noMutex]
    }

    /// How ``transaction(_:_:)`` begins.
    @_spi(SyncTablesTools) public enum TransactionKind: String, Sendable {
        /// Take no lock until the first read or write.
        case deferred = "DEFERRED"
        /// Take the write lock at once, so the transaction cannot fail later with `SQLITE_BUSY` on upgrade.
        case immediate = "IMMEDIATE"
        /// Exclude readers from other connections too (rollback-journal mode only).
        case exclusive = "EXCLUSIVE"
    }

    /// The most statements kept by ``cachedStatement(_:)``.
    @_spi(SyncTablesTools) public static let statementCacheCapacity = 256

    /// The path the connection was opened with (`:memory:` for an in-memory database).
    @_spi(SyncTablesTools) public let path: String
    private var handle: OpaquePointer?
    private var statementCache: [String: Statement] = [:]
    private var savepointDepth = 0
    /// The commit hook installed by ``setWALCommitHook(_:)``, kept alive as long as the connection.
    var walCommitHook: WALCommitHook?

    /// Opens (and by default creates) the database at `path`; `":memory:"` opens a private in-memory one.
    @_spi(SyncTablesTools) public init(path: String, flags: OpenFlags = .standard) throws(SQLiteError) {
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, flags.rawValue, nil)
        guard code == SQLITE_OK, let opened else {
            let error = SQLiteError(connection: opened, code: code, sql: nil)
            sqlite3_close_v2(opened)
            throw error
        }
        sqlite3_extended_result_codes(opened, 1)
        self.path = path
        self.handle = opened
    }

    deinit {
        statementCache.removeAll()
        if let handle { sqlite3_close_v2(handle) }
    }

    /// The live connection handle, or a `SQLITE_MISUSE` error after ``close()``.
    @_spi(SyncTablesTools) public func connection() throws(SQLiteError) -> OpaquePointer {
        guard let handle else {
            throw SQLiteError(extendedCode: SQLITE_MISUSE, message: "the database connection is closed")
        }
        return handle
    }

    /// Closes the connection after finalizing every cached statement. Later calls fail with `SQLITE_MISUSE`.
    @_spi(SyncTablesTools) public func close() throws(SQLiteError) {
        guard let handle else { return }
        statementCache.removeAll()
        let code = sqlite3_close_v2(handle)
        self.handle = nil
        guard code == SQLITE_OK else { throw SQLiteError(connection: nil, code: code, sql: nil) }
    }

    // MARK: Running SQL

    /// Runs one or more `;`-separated statements that take no parameters.
    @_spi(SyncTablesTools) public func execute(_ sql: String) throws(SQLiteError) {
        let connection = try connection()
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(connection, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) }
            sqlite3_free(message)
            var error = SQLiteError(connection: connection, code: code, sql: sql)
            if let text { error = SQLiteError(extendedCode: error.extendedCode, message: text, sql: sql) }
            throw error
        }
    }

    /// Prepares a statement that the caller owns (not cached).
    @_spi(SyncTablesTools) public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        try Statement(connection: connection(), sql: sql)
    }

    /// A prepared statement for `sql`, reused across calls; it comes back reset with cleared bindings.
    @_spi(SyncTablesTools) public func cachedStatement(_ sql: String) throws(SQLiteError) -> Statement {
        if let statement = statementCache[sql] {
            statement.reset()
            statement.clearBindings()
            return statement
        }
        let statement = try prepare(sql)
        // Filters of many shapes would grow the cache without bound; starting over is cheap and rare.
        if statementCache.count >= Self.statementCacheCapacity { statementCache.removeAll() }
        statementCache[sql] = statement
        return statement
    }

    /// Finalizes every cached statement (for example before closing, or to free memory).
    @_spi(SyncTablesTools) public func clearStatementCache() {
        statementCache.removeAll()
    }

    /// Runs a statement with parameters and discards any rows.
    @_spi(SyncTablesTools) public func run(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(values)
        try statement.run()
    }

    /// The first column of the first row of a query, or `.null` when there is no row.
    @_spi(SyncTablesTools) public func scalar(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError)
        -> SQLiteValue
    {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(values)
        return try statement.step() ? statement.value(at: 0) : .null
    }

    // MARK: Facts

    /// Rows changed by the most recent INSERT, UPDATE or DELETE.
    @_spi(SyncTablesTools) public var changes: Int {
        handle.map { Int(sqlite3_changes($0)) } ?? 0
    }

    /// `true` while a transaction is open.
    @_spi(SyncTablesTools) public var isInTransaction: Bool {
        handle.map { sqlite3_get_autocommit($0) == 0 } ?? false
    }

    /// `true` when the main database was opened read-only (for example a file without write permission).
    @_spi(SyncTablesTools) public var isReadOnly: Bool {
        handle.map { sqlite3_db_readonly($0, "main") == 1 } ?? false
    }

    /// Waits up to `milliseconds` for another connection's lock before failing with `SQLITE_BUSY`.
    @_spi(SyncTablesTools) public func setBusyTimeout(milliseconds: Int32) throws(SQLiteError) {
        let connection = try connection()
        let code = sqlite3_busy_timeout(connection, milliseconds)
        guard code == SQLITE_OK else { throw SQLiteError(connection: connection, code: code, sql: nil) }
    }

    /// The schema version stamp kept in `PRAGMA user_version`.
    @_spi(SyncTablesTools) public func userVersion() throws(SQLiteError) -> Int {
        if case .integer(let version) = try scalar("PRAGMA user_version") { return Int(version) }
        return 0
    }

    /// Stamps `PRAGMA user_version`.
    @_spi(SyncTablesTools) public func setUserVersion(_ version: Int) throws(SQLiteError) {
        try execute("PRAGMA user_version = \(version)")
    }

    // MARK: Transactions

    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
    ///
    /// The transaction-control statements go through ``run(_:_:)`` and its statement cache: `sqlite3_exec`
    /// would parse them again on every call, and a small local write issues up to six of them.
    ///
    /// Nested calls become savepoints, so an inner failure only undoes the inner work.
    @_spi(SyncTablesTools) public func transaction<Result>(
        _ kind: TransactionKind = .immediate,
        _ body: () throws -> Result
    ) throws -> Result {
        if isInTransaction { return try savepoint(body) }
        try run("BEGIN \(kind.rawValue) TRANSACTION")
        let result: Result
        do {
            result = try body()
        } catch {
            rollbackIfNeeded()
            throw error
        }
        do {
            try run("COMMIT TRANSACTION")
        } catch {
            rollbackIfNeeded()
            throw error
        }
        return result
    }

    /// Runs `body` inside a savepoint: released when it returns, rolled back to when it throws.
    @_spi(SyncTablesTools) public func savepoint<Result>(_ body: () throws -> Result) throws -> Result {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "synctables_savepoint_\(savepointDepth)"
        try run("SAVEPOINT \(name)")
        do {
            let result = try body()
            try run("RELEASE SAVEPOINT \(name)")
            return result
        } catch {
            if isInTransaction {
                try? run("ROLLBACK TO SAVEPOINT \(name)")
                try? run("RELEASE SAVEPOINT \(name)")
            }
            throw error
        }
    }

    /// Some failures (`SQLITE_FULL`, `SQLITE_IOERR`, ...) already rolled the transaction back; only roll back
    /// when one is still open so the original error is the one reported.
    private func rollbackIfNeeded() {
        guard isInTransaction else { return }
        try? run("ROLLBACK TRANSACTION")
    }
}
