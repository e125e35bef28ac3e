import Foundation
import SyncTablesSQLite

/// Runs a file store's WAL checkpoints on a thread and connection of their own.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses 1000 log pages: that write then also
/// copies the log into the database and flushes both files, so every few hundred local writes one of them
/// took many times longer than the rest. Here the store's connection only reports its log size after each
/// commit (``WALCommitHook``); past ``backgroundPages`` this thread checkpoints passively, beside the
/// writer (WAL allows one writer and one checkpointer at once). If the log still reaches ``inlinePages``
/// (the thread is stopped, or readers keep it from finishing), the committing connection checkpoints
/// itself, as SQLite would, so the log never grows without bound.
final class SQLiteCheckpointer: @unchecked Sendable {
    /// The log size that wakes the thread: SQLite's own automatic checkpoint size.
    static let backgroundPages: Int32 = 1000
    /// The log size at which the committing connection checkpoints itself.
    static let inlinePages: Int32 = 4000

    // Guarded by `condition`.
    private var database: Database?
    private var isRequested = false
    private var isStopping = false
    private let condition = NSCondition()

    /// Opens the checkpoint connection and starts the thread; `nil` for an in-memory database.
    init?(path: String, busyTimeoutMilliseconds: Int32, prepare: (Database) throws -> Void) throws {
        guard
            let database = try SQLiteSideConnection.open(
                path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, prepare: prepare)
        else { return nil }
        self.database = database
        let thread = Thread { [self] in run() }
        thread.name = "SyncTablesWAL"
        thread.qualityOfService = .utility
        thread.start()
    }

    /// The hook for the store's connection: asks for a checkpoint when the log is large enough, and says
    /// when the committing connection must checkpoint itself.
    func commitHook() -> WALCommitHook {
        WALCommitHook { [self] pages in
            guard pages >= Self.backgroundPages else { return false }
            return !request() || pages >= Self.inlinePages
        }
    }

    /// Wakes the thread; `false` when it has stopped.
    private func request() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !isStopping, database != nil else { return false }
        isRequested = true
        condition.signal()
        return true
    }

    /// Stops the thread and closes its connection (waiting for a running checkpoint to finish). Later
    /// commits checkpoint on the store's connection.
    func stop() {
        condition.lock()
        isStopping = true
        try? database?.close()
        database = nil
        condition.signal()
        condition.unlock()
    }

    private func run() {
        condition.lock()
        defer { condition.unlock() }
        while true {
            while !isRequested && !isStopping { condition.wait() }
            if isStopping { return }
            isRequested = false
            // Held across the checkpoint so `stop` waits for it; `request` only ever waits for that long.
            _ = try? database?.checkpointPassively()
        }
    }
}
