@_spi(SyncTablesTools) import SyncTablesSQLite

/// A second connection to a file store's database, for work beside the store's own connection (lookups on
/// the caller's thread, checkpoints): opened and prepared (for example keyed) the same way.
enum SQLiteSideConnection {
    /// The connection, or `nil` when there is no file to share (an in-memory database).
    static func open(path: String, busyTimeoutMilliseconds: Int32, prepare: (Database) throws -> Void) throws
        -> Database?
    {
        guard path != ":memory:", !path.isEmpty else { return nil }
        let database = try Database(path: path, flags: [.readWrite, .noMutex])
        try prepare(database)
        try database.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
        return database
    }
}
