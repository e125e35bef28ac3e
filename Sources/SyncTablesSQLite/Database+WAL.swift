#if SQLCipher
    import CSQLCipher
#else
    import CSQLite
#endif

/// What a connection does after each commit in WAL mode, in place of SQLite's automatic checkpoint.
///
/// `afterCommit` gets the number of pages now in the write-ahead log and answers whether the committing
/// connection should checkpoint right away (passively, as SQLite's automatic checkpoint does).
@_spi(SyncTablesTools) public final class WALCommitHook {
    let afterCommit: (_ walPages: Int32) -> Bool

    /// A hook calling `afterCommit` with the WAL's size in pages after each commit.
    @_spi(SyncTablesTools) public init(afterCommit: @escaping (_ walPages: Int32) -> Bool) {
        self.afterCommit = afterCommit
    }
}

extension Database {
    /// Installs `hook` (or, with `nil`, restores SQLite's automatic checkpoint every 1000 pages).
    ///
    /// Installing a hook turns the automatic checkpoint off: the hook decides when checkpoints run.
    @_spi(SyncTablesTools) public func setWALCommitHook(_ hook: WALCommitHook?) throws(SQLiteError) {
        let connection = try connection()
        walCommitHook = hook
        guard let hook else {
            sqlite3_wal_autocheckpoint(connection, 1000)
            return
        }
        let context = Unmanaged.passUnretained(hook).toOpaque()
        sqlite3_wal_hook(
            connection,
            { context, connection, schema, pages in
                guard let context else { return SQLITE_OK }
                let hook = Unmanaged<WALCommitHook>.fromOpaque(context).takeUnretainedValue()
                if hook.afterCommit(pages) {
                    // Errors (another checkpoint running, a reader pinning the log) only postpone it.
                    _ = sqlite3_wal_checkpoint_v2(connection, schema, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
                }
                return SQLITE_OK
            },
            context)
    }

    /// Copies as much of the write-ahead log into the database as readers allow, without waiting for any
    /// lock (`SQLITE_CHECKPOINT_PASSIVE`). Returns the log's size and how much of it is now checkpointed, in
    /// pages.
    @discardableResult
    @_spi(SyncTablesTools) public func checkpointPassively() throws(SQLiteError) -> (
        walPages: Int, checkpointedPages: Int
    ) {
        let connection = try connection()
        var walPages: Int32 = 0
        var checkpointed: Int32 = 0
        let code = sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_PASSIVE, &walPages, &checkpointed)
        guard code == SQLITE_OK else { throw SQLiteError(connection: connection, code: code, sql: nil) }
        return (Int(walPages), Int(checkpointed))
    }
}
