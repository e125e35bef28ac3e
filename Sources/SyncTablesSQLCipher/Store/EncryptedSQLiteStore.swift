#if SQLCipher
    import Foundation
    @_spi(SyncTablesTools) import SyncTables

    /// A `SQLiteStore` whose file is encrypted with SQLCipher: every page is AES-256 encrypted and
    /// authenticated, so the file reveals nothing without the key.
    ///
    /// Available when the package is built with the `SQLCipher` trait. The key is given to SQLCipher
    /// before any other statement and proven at once by reading the schema, so a wrong key fails in the
    /// initializer with `StoreError.wrongKey` — and nothing is ever written to a file that did not open.
    /// Everything else (tables, queries, transactions, WAL journal, durability) is `SQLiteStore`'s.
    ///
    /// ```swift
    /// import SyncTablesSQLCipher
    ///
    /// let store = try EncryptedSQLiteStore(path: "todo.db", key: "correct horse battery staple")
    /// let fast = try EncryptedSQLiteStore(path: "todo.db", rawKey: keyFromKeychain)   // 32 bytes, no derivation
    /// let context = try await SyncContext(store: store, client: client)
    /// ```
    ///
    /// The store shares the inner `SQLiteStore`'s thread: a call hops to that thread once, as with a
    /// plain store.
    public actor EncryptedSQLiteStore: LocalStore, CapableStore {
        private let store: SQLiteStore

        /// The path of the encrypted database file.
        public nonisolated let path: String

        /// Runs on the inner store's dedicated thread, so forwarding a call costs no second hop.
        public nonisolated var unownedExecutor: UnownedSerialExecutor {
            store.unownedExecutor
        }

        /// The store's own thread as a task executor; see `LocalStore.preferredTaskExecutor`.
        public nonisolated var preferredTaskExecutor: (any TaskExecutor)? {
            store.preferredTaskExecutor
        }

        /// Opens (or creates) the encrypted database at `path` with a passphrase.
        ///
        /// The passphrase goes through SQLCipher's key derivation, which costs tens of milliseconds per
        /// open; prefer ``init(path:rawKey:configuration:)`` when you can keep a random 32-byte key.
        /// A Swift `String` cannot be wiped from memory: ``init(path:passphrase:configuration:)`` takes bytes
        /// you can clear yourself.
        ///
        /// Throws `StoreError.wrongKey` when the key does not open the file, `StoreError.notEncrypted`
        /// for a plain SQLite file, `StoreError.truncated(message:)` for a file cut short,
        /// `StoreError.corrupt(message:)` for a file that is not a database, and
        /// `StoreError.invalidKey(reason:)` for an empty passphrase. The file is unchanged after any of
        /// them.
        public init(path: String, key: String, configuration: SQLiteStore.Configuration = .init()) throws {
            try self.init(path: path, key: EncryptionKey.passphrase(key), configuration: configuration)
        }

        /// Opens (or creates) the encrypted database at `path` with a passphrase given as bytes.
        ///
        /// The bytes are copied into a buffer that is wiped after use; clearing `passphrase` itself is up to
        /// you. Throws like the passphrase initializer.
        public init(
            path: String, passphrase: some ContiguousBytes, configuration: SQLiteStore.Configuration = .init()
        ) throws {
            try self.init(path: path, key: EncryptionKey.passphrase(bytes: passphrase), configuration: configuration)
        }

        /// Opens (or creates) the encrypted database at `path` with a raw 256-bit key (exactly 32 bytes).
        ///
        /// No key derivation runs, so opening takes well under a millisecond. Throws
        /// `StoreError.invalidKey(reason:)` when the key is not 32 bytes, otherwise like the
        /// passphrase initializer.
        public init(
            path: String, rawKey: some ContiguousBytes, configuration: SQLiteStore.Configuration = .init()
        ) throws {
            try self.init(path: path, key: EncryptionKey.raw(rawKey), configuration: configuration)
        }

        /// Opens (or creates) the encrypted database at `path` with a prepared ``EncryptionKey``.
        ///
        /// Throws like the passphrase initializer.
        public init(path: String, key: EncryptionKey, configuration: SQLiteStore.Configuration = .init()) throws {
            self.path = path
            store = try SQLiteStore(path: path, configuration: configuration) { database in
                try CipherSettings.unlock(database, key: key, path: path)
            }
        }

        // MARK: Key management

        /// Changes the key in place: every page is re-encrypted with `newKey` in one transaction.
        ///
        /// Afterwards only `newKey` opens the file. Call it while no other connection has the file open.
        public func rekey(to newKey: EncryptionKey) async throws {
            try await store.withDatabase { database in try CipherSettings.rekey(database, to: newKey) }
        }

        /// Changes the key in place to a new passphrase; see the ``EncryptionKey`` variant.
        public func rekey(to passphrase: String) async throws {
            try await rekey(to: EncryptionKey.passphrase(passphrase))
        }

        // MARK: LocalStore

        /// Creates or extends a table.
        public func defineTable(_ definition: TableDefinition) async throws {
            try await store.defineTable(definition)
        }

        /// The definitions of every table.
        public func tableDefinitions() async throws -> [TableDefinition] {
            try await store.tableDefinitions()
        }

        /// The rows matching a query, in its order.
        public func read(_ query: StoreQuery) async throws -> [JSONObject] {
            try await store.read(query)
        }

        /// The rows matching a query as their stored JSON text (see `LocalStore.readJSON(_:)`).
        public func readJSON(_ query: StoreQuery) async throws -> [[UInt8]] {
            try await store.readJSON(query)
        }

        /// The number of rows a query selects.
        public func count(_ query: StoreQuery) async throws -> Int {
            try await store.count(query)
        }

        /// The inner `SQLiteStore`'s (its thread, the properties its tables' rows ever had, its file), and
        /// encryption: attachment files are encrypted too.
        package nonisolated var declaredCapabilities: StoreCapabilities {
            var capabilities = store.capabilities
            capabilities.encrypts = true
            return capabilities
        }

        /// The row with this id, or `nil`.
        ///
        /// Nonisolated like `SQLiteStore`'s, so a lookup it can answer on the caller's thread stays there.
        public nonisolated func lookup(table: String, id: String) async throws -> JSONObject? {
            try await store.lookup(table: table, id: id)
        }

        /// Runs `body` in one SQLite transaction; rolls back everything if it throws.
        public func write<Result: Sendable>(_ body: @Sendable (any StoreTransaction) throws -> Result) async throws
            -> Result
        {
            try await store.write(body)
        }

        /// Closes the database; later calls throw `StoreError.closed`.
        public func close() async throws {
            try await store.close()
        }
    }

    extension EncryptedSQLiteStore: CustomStringConvertible {
        /// The path only: a store holds no key after opening (SQLCipher keeps its own copy in memory).
        public nonisolated var description: String { "EncryptedSQLiteStore(\(path))" }
    }
#endif
