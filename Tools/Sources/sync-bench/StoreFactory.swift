import Foundation
@_spi(SyncTablesTools) import SyncTables
@_spi(SyncTablesTools) import SyncTablesSQLite

#if SQLCipher
    import SyncTablesSQLCipher
#endif

/// Which store the local suite measures.
enum StoreKind: String, Sendable, CaseIterable {
    case plain
    case encrypted
    /// The plain store against raw SQLite, then the encrypted store against the plain store.
    case both
}

/// Opens the stores the suites measure.
enum StoreFactory {
    /// Whether this build can open an encrypted store.
    static var encryptionAvailable: Bool {
        #if SQLCipher
            true
        #else
            false
        #endif
    }

    /// The raw key the encrypted stores use (a fixed value: the benchmark measures speed, not secrecy).
    static let rawKey = [UInt8](repeating: 0x5A, count: 32)

    /// Opens a file-backed store; `encrypted` opens an `EncryptedSQLiteStore` with a raw key.
    static func open(path: String, synchronous: SQLiteStore.Configuration.Synchronous, encrypted: Bool) throws
        -> any LocalStore
    {
        let configuration = SQLiteStore.Configuration(synchronous: synchronous)
        guard encrypted else { return try SQLiteStore(path: path, configuration: configuration) }
        #if SQLCipher
            return try EncryptedSQLiteStore(path: path, rawKey: rawKey, configuration: configuration)
        #else
            throw BenchError.unexpected("an encrypted store needs a build with --traits SQLCipher")
        #endif
    }
}
