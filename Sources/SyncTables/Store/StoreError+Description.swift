@_spi(SyncTablesTools) import SyncTablesCore

extension StoreError: CustomStringConvertible {
    /// A sentence a user can act on. Never contains key material: encryption errors name no key.
    public var description: String { sentences.withoutDoubledPeriods }

    private var sentences: String {
        switch self {
        case .invalidTableName(let name):
            "Invalid table name '\(name)': use a letter or '_', then letters, digits or '_' (at most 128)."
        case .unknownTable(let name): "Table '\(name)' was never defined."
        case .missingID(let table): "An item for table '\(table)' has no string 'id'."
        case .closed: "The store was closed."
        case .database(let code, let message, let sql):
            "The database failed (SQLite code \(code)): \(message)" + (sql.map { " (SQL: \($0))" } ?? "")
        case .corrupt(let message): "The file is not a database or is damaged: \(message)."
        case .full(let message): "The disk or the database is full: \(message)."
        case .busy(let message): "Another connection held the database locked too long: \(message)."
        case .invalidStoredData(let table, let id, let message):
            "Stored data in table '\(table)'" + (id.map { " (row '\($0)')" } ?? "") + " is invalid: \(message)."
        case .invalidQuery(let message): "Invalid query: \(message)."
        case .cannotOpen(let path, let message): "Cannot open the database at \(path): \(message)."
        case .readOnly(let message): "The database can only be read: \(message)."
        case .transactionFinished: "A transaction handle was used after its write call returned."
        case .truncated(let message): "The database file is cut short: \(message). It was left unchanged."
        case .wrongKey:
            "The key does not open this encrypted database (or the file is damaged). Nothing was written to it."
        case .keyRequired:
            "The file looks like an encrypted database (no SQLite header): open it with EncryptedSQLiteStore "
                + "and its key."
        case .notEncrypted:
            "A key was given, but the file is a plain SQLite database: open it with SQLiteStore, or encrypt it "
                + "with EncryptedSQLiteStore.encryptPlainDatabase(at:to:key:)."
        case .invalidKey(let reason): "The key cannot be used: \(reason)."
        case .migrationVerificationFailed(let table, let expectedRows, let actualRows):
            "The copied database has \(actualRows) rows in table '\(table)' instead of \(expectedRows); the "
                + "copy was deleted and the source is unchanged."
        }
    }
}
