/// Why a store refused or failed an operation.
public enum StoreError: Error, Sendable, Hashable {
    /// The table name is not an identifier (letter or `_`, then letters, digits, `_`; at most 128).
    case invalidTableName(String)
    /// The table was never defined.
    case unknownTable(String)
    /// An item to store has no string `id`.
    case missingID(table: String)
    /// The store was closed.
    case closed
    /// The underlying database failed; `code` is the engine's result code, `message` its text.
    case database(code: Int32, message: String, sql: String?)
    /// The database file is not a database, or is damaged.
    case corrupt(message: String)
    /// The disk or the database is full.
    case full(message: String)
    /// Another process held the database locked longer than the busy timeout.
    case busy(message: String)
    /// Stored data could not be decoded.
    case invalidStoredData(table: String, id: String?, message: String)
    /// The query cannot be run as written (for example a function called with the wrong number of
    /// arguments, or more constants than the engine can bind in one statement).
    case invalidQuery(message: String)
    /// The database file could not be opened or created at this path (missing directory, no permission, ...).
    case cannotOpen(path: String, message: String)
    /// The database can only be read (for example a file or directory without write permission).
    case readOnly(message: String)
    /// A transaction handle was used after its ``LocalStore/write(_:)`` call returned.
    case transactionFinished
    /// The database file is shorter than its own header says: it was cut off (an interrupted copy, a full
    /// disk). The file is left untouched.
    case truncated(message: String)

    // MARK: Encryption (EncryptedSQLiteStore)

    /// The key does not open this encrypted database. Nothing was written to the file.
    ///
    /// A wrong key and a damaged encrypted file cannot be told apart cryptographically; this is reported
    /// when the file has no SQLite header and its size is a whole number of pages.
    case wrongKey
    /// The file looks like an encrypted database (no SQLite header, a whole number of pages) and was
    /// opened without a key.
    case keyRequired
    /// A key was given, but the file is a plain, unencrypted SQLite database.
    case notEncrypted
    /// The key is unusable, for example a raw key that is not 32 bytes or an empty passphrase. The reason
    /// never contains key material.
    case invalidKey(reason: String)
    /// Copying a database between plain and encrypted form read back a different row count than the
    /// source has; the copy was deleted and the source is unchanged.
    case migrationVerificationFailed(table: String, expectedRows: Int, actualRows: Int)
}
