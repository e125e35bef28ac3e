import Foundation
import SyncTables
import SyncTablesSQLite

/// Which store the local suite measures.
enum StoreKind: String, Sendable, CaseIterable {
    case plain
    case encrypted
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

    /// Opens a file-backed store; `encrypted` keys it with SQLCipher's `PRAGMA key` before anything else
    /// (the same first statement `EncryptedSQLiteStore` has to issue).
    static func open(path: String, synchronous: SQLiteStore.Configuration.Synchronous, encrypted: Bool) throws
        -> SQLiteStore
    {
        let configuration = SQLiteStore.Configuration(synchronous: synchronous)
        guard encrypted else { return try SQLiteStore(path: path, configuration: configuration) }
        return try SQLiteStore(path: path, configuration: configuration) { database in
            try database.execute("PRAGMA key = 'sync-bench-passphrase'")
        }
    }
}
