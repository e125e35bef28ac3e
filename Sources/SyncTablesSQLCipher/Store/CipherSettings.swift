#if SQLCipher
    import CSQLCipher
    @_spi(SyncTablesTools) import SyncTables
    @_spi(SyncTablesTools) import SyncTablesSQLite

    /// How every encrypted store is opened: the key first, then the cipher settings, then a read that
    /// proves the key before anything may write.
    ///
    /// The cipher settings are the file format: the `sqlcipher` command line needs the same ones
    /// (`PRAGMA key = '…'; PRAGMA cipher_page_size = 4096;`). Everything else is SQLCipher 3.4's default
    /// (AES-256-CBC, HMAC-SHA1, PBKDF2-HMAC-SHA1 with 64,000 iterations).
    enum CipherSettings {
        /// Bytes per page. SQLCipher 3's default is 1024; 4096 encrypts and authenticates a quarter as many
        /// pages per row written and matches the plain store's page size.
        static let pageSize = 4096
        /// The page cache in KiB of an encrypted store's side connections (the one answering lookups, the
        /// checkpointer). Each cache miss costs a decryption and an HMAC check, so lookups keep up to 64 MiB
        /// of decrypted pages (measured: random lookups over 100k rows went from 0.73-0.84 of the plain
        /// store's rate with 16 MiB to 1.1-1.4 once the pages were cached). The cache only grows as pages
        /// are read. The store's own connection uses `SQLiteStore.Configuration.cacheSizeKiB`.
        static let cacheSizeKibibytes = 65_536

        /// The statements that follow the key; the same ones make the `sqlcipher` tool read our files.
        static let pragmas = ["PRAGMA cipher_page_size = \(pageSize)"]

        /// Keys a new connection, applies the settings and proves the key by reading the schema.
        ///
        /// Throws `StoreError.wrongKey`, `StoreError.notEncrypted`, `StoreError.truncated(message:)`
        /// or `StoreError.corrupt(message:)` when the file cannot be read with this key; nothing has been
        /// written by then.
        static func unlock(_ database: Database, key: EncryptionKey, path: String, cacheSize: Bool = true) throws {
            try apply(key, to: database, schema: nil)
            for pragma in pragmas { try database.execute(pragma) }
            try SQLiteStore.verifyReadable(database, path: path, keyed: true)
            // After the proof: `cache_size` loads the schema, so it would fail first and less clearly.
            if cacheSize { try database.execute("PRAGMA cache_size = -\(cacheSizeKibibytes)") }
        }

        /// Gives `key` to SQLCipher for the main database (`schema` nil) or an attached one.
        static func apply(_ key: EncryptionKey, to database: Database, schema: String?) throws {
            let connection = try database.connection()
            let code = key.material.withBytes { bytes in
                sqlite3_key_v2(connection, schema, bytes.baseAddress, Int32(bytes.count))
            }
            guard code == SQLITE_OK else {
                throw StoreError.invalidKey(reason: "SQLCipher refused the key (result code \(code))")
            }
        }

        /// Changes the key of the open database in place (every page is re-encrypted).
        static func rekey(_ database: Database, to key: EncryptionKey) throws {
            let connection = try database.connection()
            let code = key.material.withBytes { bytes in
                sqlite3_rekey(connection, bytes.baseAddress, Int32(bytes.count))
            }
            guard code == SQLITE_OK else {
                let message = sqlite3_errmsg(connection).map { String(cString: $0) } ?? "rekey failed"
                throw StoreError(SQLiteError(extendedCode: code, message: message))
            }
        }
    }
#endif
