#if SQLCipher
    @_spi(SyncTablesTools) import SyncTables

    extension EncryptedSQLiteStore {
        /// Encrypts the plain `SQLiteStore` file at `source` into a new encrypted file at `destination`.
        ///
        /// Every table is copied with SQLCipher's `sqlcipher_export` — items and the system tables
        /// (`__operations`, `__errors`, `__config`), so pending operations, push errors and pull tokens
        /// survive — and the copy is verified by opening it with `key` and comparing every table's row count
        /// before it appears at `destination`. Close every store on `source` first. The source is left in
        /// place: delete it yourself once you have switched to the encrypted file.
        ///
        /// ```swift
        /// try EncryptedSQLiteStore.encryptPlainDatabase(at: "todo.sqlite", to: "todo.db", key: .raw(keyBytes))
        /// let store = try EncryptedSQLiteStore(path: "todo.db", rawKey: keyBytes)
        /// ```
        ///
        /// Throws `StoreError.cannotOpen(path:message:)` when `destination` already exists,
        /// `StoreError.keyRequired` when `source` is already encrypted, and
        /// `StoreError.migrationVerificationFailed(table:expectedRows:actualRows:)` when the read-back
        /// differs (then nothing is left at `destination`).
        ///
        /// - Returns: The row count of every table copied.
        @discardableResult
        public static func encryptPlainDatabase(at source: String, to destination: String, key: EncryptionKey)
            throws -> [String: Int]
        {
            try DatabaseExport.copy(source: source, sourceKey: nil, destination: destination, destinationKey: key)
        }

        /// Decrypts the encrypted database at `source` into a new plain SQLite file at `destination`.
        ///
        /// The reverse of ``encryptPlainDatabase(at:to:key:)``, verified the same way. Throws
        /// `StoreError.wrongKey` when `key` does not open `source`.
        ///
        /// - Returns: The row count of every table copied.
        @discardableResult
        public static func decryptDatabase(at source: String, key: EncryptionKey, to destination: String)
            throws -> [String: Int]
        {
            try DatabaseExport.copy(source: source, sourceKey: key, destination: destination, destinationKey: nil)
        }
    }
#endif
