@_spi(SyncTablesTools) import SyncTablesCore
@_spi(SyncTablesTools) import SyncTablesSQLite

/// A second, read-only use of a file store's database for ``SQLiteStore/lookup(table:id:)``, so a caller
/// on any thread reads one row without two thread switches (to the store's thread and back), which cost
/// more than the lookup itself.
///
/// In WAL mode a reader sees exactly the last committed state and never waits for the writer. The
/// connection is guarded by a lock; the row is assembled after the lock is released. Any failure
/// here (a table defined in a write not committed yet, a closed store, an I/O error) answers
/// ``Outcome/unavailable`` and the store repeats the lookup on its own connection, which reports the
/// proper error.
final class SQLiteLookupConnection: Sendable {
    /// What a lookup found.
    enum Outcome {
        /// The row's stored parts (see ``SQLiteRowCoding``).
        case found(Row)
        /// No row has this id.
        case absent
        /// The store's own connection must answer.
        case unavailable
    }

    /// A row as read, copied out of the statement so it can be assembled outside the lock.
    struct Row {
        var id: String
        var json: [UInt8]
        var kinds: String?
        var values: [SQLiteValue]
        var columns: SQLiteRowCoding.Columns

        /// The stored item; throws when the row does not fit the columns recorded for the table (a column
        /// another process added since).
        func object() throws -> JSONObject {
            try json.withUnsafeBufferPointer { json in
                try SQLiteRowCoding.object(id: id, json: json, kinds: kinds, columns: columns, value: { values[$0] })
            }
        }
    }

    /// What a lookup needs to know about one table.
    struct Table: Sendable {
        /// ``SQLiteTableState/lookupSQL``.
        var lookupSQL: String
        /// ``SQLiteTableState/rowColumns``.
        var columns: SQLiteRowCoding.Columns

        init(_ table: SQLiteTableState) {
            lookupSQL = table.lookupSQL
            columns = table.rowColumns
        }
    }

    private struct State {
        var database: Database?
        /// Every table the store's catalog holds, by key (``TableName``).
        var tables: [String: Table] = [:]
        /// The catalog revision `tables` comes from.
        var revision = -1
    }

    private let state: LockedState<State>

    /// Opens the connection, or returns `nil` when there is no file to share (an in-memory database).
    init?(path: String, busyTimeoutMilliseconds: Int32, memoryMapBytes: Int, prepare: (Database) throws -> Void) throws
    {
        guard
            let database = try SQLiteSideConnection.open(
                path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, prepare: prepare)
        else { return nil }
        try database.execute("PRAGMA query_only = 1")
        try database.execute("PRAGMA mmap_size = \(max(0, memoryMapBytes))")
        state = LockedState(State(database: database))
    }

    /// Records the tables the store knows at a revision of its catalog; lookups of other names go to the
    /// store.
    func setTables(_ tables: [String: Table], revision: Int) {
        state.withLock {
            $0.tables = tables
            $0.revision = revision
        }
    }

    /// The catalog revision the tables were last recorded at.
    var revision: Int {
        state.withLock { $0.revision }
    }

    /// The stored parts of the row `id` of `table`.
    func lookup(table: String, id: String) -> Outcome {
        guard let key = try? TableName.key(table) else { return .unavailable }
        return state.withLock { state in
            guard let database = state.database, let table = state.tables[key] else { return .unavailable }
            do {
                let statement = try database.cachedStatement(table.lookupSQL)
                defer { statement.reset() }
                try statement.bind(id, at: 1)
                guard try statement.step() else { return .absent }
                let first = SQLiteTableState.firstRowColumn
                return .found(
                    Row(
                        id: statement.text(at: 0) ?? id, json: statement.withUTF8Bytes(at: 1) { Array($0) },
                        kinds: statement.text(at: 2),
                        values: (0..<Int32(table.columns.numbers.count)).map { statement.value(at: first + $0) },
                        columns: table.columns))
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
