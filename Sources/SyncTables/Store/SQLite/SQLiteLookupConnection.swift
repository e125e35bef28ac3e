import SyncTablesSQLite

/// A second, read-only use of a file store's database for ``SQLiteStore/lookup(table:id:)``, so a caller
/// on any thread reads one row without two thread switches (to the store's thread and back), which cost
/// more than the lookup itself.
///
/// In WAL mode a reader sees exactly the last committed state and never waits for the writer. The
/// connection is guarded by a lock; the row's JSON is parsed after the lock is released. Any failure
/// here (a table defined in a write not committed yet, a closed store, an I/O error) answers
/// ``Outcome/unavailable`` and the store repeats the lookup on its own connection, which reports the
/// proper error.
final class SQLiteLookupConnection: Sendable {
    /// What a lookup found.
    enum Outcome {
        /// The stored JSON of the row.
        case found([UInt8])
        /// No row has this id.
        case absent
        /// The store's own connection must answer.
        case unavailable
    }

    private struct State {
        var database: Database?
        /// The lookup statement of every table the store's catalog holds, by key (``TableName``).
        var tables: [String: String] = [:]
    }

    private let state: LockedState<State>

    /// Opens the connection, or returns `nil` when there is no file to share (an in-memory database).
    init?(path: String, busyTimeoutMilliseconds: Int32, prepare: (Database) throws -> Void) throws {
        guard
            let database = try SQLiteSideConnection.open(
                path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, prepare: prepare)
        else { return nil }
        try database.execute("PRAGMA query_only = 1")
        state = LockedState(State(database: database))
    }

    /// Records the tables the store knows, each with its lookup statement (``SQLiteTableState/lookupSQL``);
    /// lookups of other names go to the store.
    func setTables(_ tables: [String: String]) {
        state.withLock { $0.tables = tables }
    }

    /// How many tables were last recorded.
    var tableCount: Int {
        state.withLock { $0.tables.count }
    }

    /// The stored JSON of the row `id` of `table`.
    func lookup(table: String, id: String) -> Outcome {
        guard let key = try? TableName.key(table) else { return .unavailable }
        return state.withLock { state in
            guard let database = state.database, let lookupSQL = state.tables[key] else { return .unavailable }
            do {
                let statement = try database.cachedStatement(lookupSQL)
                defer { statement.reset() }
                try statement.bind(id, at: 1)
                guard try statement.step() else { return .absent }
                return .found(statement.withUTF8Bytes(at: 0) { Array($0) })
            } catch {
                return .unavailable
            }
        }
    }

    /// Closes the connection; later lookups answer ``Outcome/unavailable``.
    func close() {
        state.withLock { state in
            try? state.database?.close()
            state.database = nil
        }
    }
}
