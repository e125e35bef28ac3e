@_spi(SyncTablesTools) import SyncTablesSQLite

#if SQLCipher
    import CSQLCipher
#else
    import CSQLite
#endif

extension StoreError {
    /// The store error for an engine failure: damaged files, full disks and held locks get their own cases.
    package init(_ error: SQLiteError) {
        switch error.code {
        case SQLITE_NOTADB, SQLITE_CORRUPT: self = .corrupt(message: error.message)
        case SQLITE_FULL: self = .full(message: error.message)
        case SQLITE_BUSY, SQLITE_LOCKED: self = .busy(message: error.message)
        case SQLITE_READONLY: self = .readOnly(message: error.message)
        default: self = .database(code: error.extendedCode, message: error.message, sql: error.sql)
        }
    }
}

/// Runs `body`, turning engine errors into ``StoreError``s; other errors pass through unchanged.
func mappingStoreErrors<Result>(_ body: () throws -> Result) throws -> Result {
    do {
        return try body()
    } catch let error as SQLiteError {
        throw StoreError(error)
    }
}
