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
        /// The stored JSON of the row, and the values it keeps in their columns only (see
        /// ``SQLiteColumnOnlyStrings``), by property.
        case found(json: [UInt8], columnOnly: [(String, String)])
        /// No row has this id.
        case absent
        /// The store's own connection must answer.
        case unavailable
    }

    /// What a lookup needs to know about one table.
    struct Table: SQLiteColumnOnlyStrings.TableColumns, Sendable {
        /// ``SQLiteTableState/lookupSQL``.
        var lookupSQL: String
        /// ``SQLiteTableState/quotedName``.
        var quotedName: String
        /// ``SQLiteTableState/propertiesByNumber``.
        var propertiesByNumber: [Int: String]
        /// ``SQLiteTableState/storedColumnIndexes``.
        var storedColumnIndexes: [Int: Int32]

        init(_ table: SQLiteTableState) {
            lookupSQL = table.lookupSQL
            quotedName = table.quotedName
            propertiesByNumber = table.propertiesByNumber
            storedColumnIndexes = table.storedColumnIndexes
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

    /// The stored JSON of the row `id` of `table`.
    func lookup(table: String, id: String) -> Outcome {
        guard let key = try? TableName.key(table) else { return .unavailable }
        return state.withLock { state in
            guard let database = state.database, let table = state.tables[key] else { return .unavailable }
            do {
                let statement = try database.cachedStatement(table.lookupSQL)
                defer { statement.reset() }
                try statement.bind(id, at: 1)
                guard try statement.step() else { return .absent }
                let json = statement.withUTF8Bytes(at: 0) { Array($0) }
                guard let list = statement.text(at: 1) else { return .found(json: json, columnOnly: []) }
                // Read while the row's statement still steps: both see the same commit. Anything unexpected
                // (a column added since the tables were recorded) is the store's to answer.
                guard
                    let values = try SQLiteColumnOnlyStrings.values(
                        listed: list, in: statement, table: table, database: database)
                else { return .unavailable }
                return .found(json: json, columnOnly: values)
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
