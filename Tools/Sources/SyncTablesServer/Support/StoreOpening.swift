import SyncTables

extension SyncServer {
    /// Opens (or creates) the SQLite database file the server stores its tables in.
    static func openFileStore(path: String) async throws -> SQLiteStore {
        try SQLiteStore(path: path)
    }

    /// Opens a SQLite database that lives in memory.
    static func openMemoryStore() async throws -> SQLiteStore {
        try SQLiteStore.inMemory()
    }
}
