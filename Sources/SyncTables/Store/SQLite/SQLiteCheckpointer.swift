import Foundation
@_spi(SyncTablesTools) import SyncTablesCore
@_spi(SyncTablesTools) import SyncTablesSQLite

/// Runs a file store's WAL checkpoints on a thread and connection of their own.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses 1000 log pages: that write then also
/// copies the log into the database and flushes both files, so every few hundred local writes one of them
/// took many times longer than the rest. Here the store's connection only reports its log size after each
/// commit (``WALCommitHook``); past ``backgroundPages`` this thread checkpoints passively, beside the
/// writer (WAL allows one writer and one checkpointer at once). If the log still reaches ``inlinePages``
/// (the thread is stopped, or readers keep it from finishing), the committing connection checkpoints
/// itself, as SQLite would, so the log never grows without bound.
///
/// `@unchecked Sendable` is sound because the request flags are only touched with `condition` locked, and the
/// connection only through `connection`'s lock.
final class SQLiteCheckpointer: @unchecked Sendable {
    /// The log size that wakes the thread: SQLite's own automatic checkpoint size.
    static let backgroundPages: Int32 = 1000
    /// The log size at which the committing connection checkpoints itself.
    static let inlinePages: Int32 = 4000

    // Guarded by `condition`, which is only ever held for a moment: a commit that asks for a checkpoint
    // must not wait for one to finish.
    private var isRequested = false
    private var isStopping = false
    private var wakeCount = 0
    private let condition = NSCondition()
    /// The checkpoint connection (`nil` once stopped); its lock is held across a checkpoint, so `stop` waits
    /// for one to finish.
    private let connection: LockedState<Database?>

    /// Opens the checkpoint connection and starts the thread; `nil` for an in-memory database.
    init?(path: String, busyTimeoutMilliseconds: Int32, prepare: (Database) throws -> Void) throws {
        guard
            let database = try SQLiteSideConnection.open(
                path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, prepare: prepare)
        else { return nil }
        // A connection learns that the file is in WAL mode only when it first reads it; until then
        // `sqlite3_wal_checkpoint_v2` reports no log (-1 pages) and copies nothing, so every checkpoint fell
        // to the committing connection at ``inlinePages``.
        _ = try database.scalar("PRAGMA schema_version")
        self.connection = LockedState(database)
        let thread = Thread { [self] in run() }
        thread.name = "SyncTablesWAL"
        thread.qualityOfService = .utility
        thread.start()
    }

    /// The hook for the store's connection: asks for a checkpoint when the log is large enough, and says
    /// when the committing connection must checkpoint itself.
    ///
    /// The thread is woken once per ``backgroundPages`` of log growth, not after every commit: under a steady
    /// stream of writes a passive checkpoint never quite catches up (the log only starts over once it has
    /// been copied whole), and waking it after each commit made it copy and flush the database file over and
    /// over for a few pages each time.
    func commitHook() -> WALCommitHook {
        // Only the committing connection's thread (the store's) calls the hook, so this needs no lock.
        var requestedAt: Int32 = 0
        return WALCommitHook { [self] pages in
            if pages < requestedAt { requestedAt = 0 }  // the log started over
            guard pages >= Self.backgroundPages else { return false }
            if pages >= Self.inlinePages { return true }
            guard pages >= requestedAt + Self.backgroundPages else { return false }
            requestedAt = pages
            return !request()
        }
    }

    /// Wakes the thread (unless it is already asked to run); `false` when it has stopped.
    private func request() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !isStopping else { return false }
        if !isRequested {
            isRequested = true
            wakeCount += 1
            condition.signal()
        }
        return true
    }

    /// How many times commits have woken the thread so far.
    var wakes: Int {
        condition.lock()
        defer { condition.unlock() }
        return wakeCount
    }

    /// Stops the thread and closes its connection (waiting for a running checkpoint to finish). Later
    /// commits checkpoint on the store's connection.
    func stop() {
        condition.lock()
        isStopping = true
        condition.signal()
        condition.unlock()
        connection.withLock { database in
            try? database?.close()
            database = nil
        }
    }

    private func run() {
        #if os(Linux)
            // Background work: a lower priority for this thread ("0" is the calling thread on Linux), so that
            // when every core is busy the store's thread and the app's tasks run first. Foundation's quality
            // of service sets none on Linux.
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        #endif
        while true {
            condition.lock()
            while !isRequested && !isStopping { condition.wait() }
            let stopping = isStopping
            isRequested = false
            condition.unlock()
            if stopping { return }
            connection.withLock { database in
                _ = try? database?.checkpointPassively()
            }
        }
    }
}
