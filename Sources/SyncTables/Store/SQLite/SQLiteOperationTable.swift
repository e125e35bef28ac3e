import SyncTablesSQLite

/// `SQLiteStore`'s operation queue: a relational table of its own rather than a JSON row table, because
/// every local write and every pushed operation reads and writes it.
///
/// The sequence is the rowid, so push order needs no index of its own, and one unique index over
/// `(table_name, item_id)` finds an item's operation. A single local write therefore dirties two pages of
/// the queue, where the JSON row layout (document, projected columns, key and two indexes) dirtied four.
/// `created_at` holds ``Timestamp/ticks``; `item` the canonical JSON of a deleted item, else `NULL`.
enum SQLiteOperationTable {
    /// The table's name; the `__synctables_` prefix keeps it out of the user tables' namespace.
    static let name = "__synctables_operations"

    static let createSQL = """
        CREATE TABLE IF NOT EXISTS \(name) (
            sequence INTEGER PRIMARY KEY NOT NULL, operation_id TEXT NOT NULL, kind TEXT NOT NULL,
            table_name TEXT NOT NULL, item_id TEXT NOT NULL, item TEXT, state TEXT NOT NULL,
            version INTEGER NOT NULL, created_at INTEGER NOT NULL, attempts INTEGER NOT NULL,
            UNIQUE (table_name, item_id));
        """

    private static let columns =
        "sequence, operation_id, kind, table_name, item_id, item, state, version, created_at, attempts"
    // Saving inserts; when the item already has an operation the insert fails on the unique key and the
    // row is updated in place (plain inserts: under SQLCipher `INSERT OR REPLACE` cost four to five times
    // as much, see SQLiteTableState.upsertSQL). The replacing insert is the last resort.
    private static let insertSQL = "INSERT INTO \(name) (\(columns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"
    private static let updateSQL = """
        UPDATE \(name) SET sequence = ?1, operation_id = ?2, kind = ?3, item = ?6, state = ?7, version = ?8,
            created_at = ?9, attempts = ?10 WHERE table_name = ?4 AND item_id = ?5
        """
    private static let replaceSQL =
        "INSERT OR REPLACE INTO \(name) (\(columns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"
    /// Operations per multi-row insert of new operations (10 parameters each; SQLite 3.15 allows 999).
    static let blockRows = 64
    private static let blockInsertSQL =
        "INSERT INTO \(name) (\(columns)) VALUES "
        + Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: blockRows).joined(separator: ", ")
    private static let lookupSQL = "SELECT \(columns) FROM \(name) WHERE table_name = ? AND item_id = ?"
    private static let removeSQL = "DELETE FROM \(name) WHERE table_name = ? AND item_id = ?"
    private static let highestSQL = "SELECT MAX(sequence) FROM \(name)"

    // MARK: Writes

    static func save(_ operations: [PendingOperation], in database: Database) throws {
        let insert = try database.cachedStatement(insertSQL)
        defer { insert.reset() }
        for operation in operations {
            do {
                insert.reset()
                try bind(operation, to: insert)
                try insert.run()
            } catch let error as SQLiteError where error.isConstraintViolation {
                insert.reset()
                let update = try database.cachedStatement(updateSQL)
                defer { update.reset() }
                update.reset()
                try bind(operation, to: update)
                try update.run()
                if database.changes == 0 {
                    let replace = try database.cachedStatement(replaceSQL)
                    defer { replace.reset() }
                    replace.reset()
                    try bind(operation, to: replace)
                    try replace.run()
                }
            }
        }
    }

    /// Inserts operations for items with none queued; `false`, changing nothing, when one has one (the
    /// unique index on the item refuses it, so new items cost no lookups).
    static func insertNew(_ operations: [PendingOperation], in database: Database) throws -> Bool {
        struct OperationExists: Error {}
        let insert = try database.cachedStatement(insertSQL)
        defer { insert.reset() }
        func run(_ statement: Statement) throws {
            do {
                try statement.run()
            } catch {
                throw error.isConstraintViolation ? OperationExists() : error
            }
        }
        func insertAll() throws {
            // Whole blocks with one statement each (one step per row cost more than binding it), the rest
            // one by one.
            var written = 0
            if operations.count >= blockRows {
                let block = try database.cachedStatement(blockInsertSQL)
                defer { block.reset() }
                while operations.count - written >= blockRows {
                    block.reset()
                    for row in 0..<blockRows {
                        try bind(operations[written + row], to: block, offset: Int32(row * 10))
                    }
                    try run(block)
                    written += blockRows
                }
            }
            for operation in operations.dropFirst(written) {
                insert.reset()
                try bind(operation, to: insert)
                try run(insert)
            }
        }
        do {
            // One statement is atomic by itself; more need a savepoint to be undone together.
            if operations.count == 1 { try insertAll() } else { try database.savepoint(insertAll) }
            return true
        } catch is OperationExists {
            return false
        }
    }

    /// Binds an operation's ten columns to parameters `offset + 1` … `offset + 10`, in ``columns`` order
    /// (the statement must not be running: reset it first).
    private static func bind(_ operation: PendingOperation, to statement: Statement, offset: Int32 = 0) throws {
        try statement.bind(Int64(operation.sequence), at: offset + 1)
        try statement.bind(operation.id, at: offset + 2)
        try statement.bind(operation.kind.rawValue, at: offset + 3)
        try statement.bind(operation.table, at: offset + 4)
        try statement.bind(operation.itemId, at: offset + 5)
        if let item = operation.item {
            try statement.bind(utf8: StoreCoding.canonicalJSONBytes(item), at: offset + 6)
        } else {
            try statement.bind(.null, at: offset + 6)
        }
        try statement.bind(operation.state.rawValue, at: offset + 7)
        try statement.bind(Int64(operation.version), at: offset + 8)
        try statement.bind(operation.createdAt.ticks, at: offset + 9)
        try statement.bind(Int64(operation.attempts), at: offset + 10)
    }

    static func remove(_ operations: [PendingOperation], in database: Database) throws {
        let statement = try database.cachedStatement(removeSQL)
        defer { statement.reset() }
        for operation in operations {
            statement.reset()
            try statement.bind(operation.table, at: 1)
            try statement.bind(operation.itemId, at: 2)
            try statement.run()
        }
    }

    // MARK: Reads

    static func operation(table: String, itemId: String, in database: Database) throws -> PendingOperation? {
        let statement = try database.cachedStatement(lookupSQL)
        defer { statement.reset() }
        try statement.bind(table, at: 1)
        try statement.bind(itemId, at: 2)
        return try statement.step() ? try operation(from: statement) : nil
    }

    static func operations(_ selection: OperationSelection, in database: Database) throws -> [PendingOperation] {
        var found: [PendingOperation]
        if let tables = selection.tables, let itemIds = selection.itemIds {
            // Point lookups through the unique index: no statement grows with the number of ids.
            found = []
            for table in tables {
                for itemId in itemIds {
                    if let operation = try operation(table: table, itemId: itemId, in: database),
                        selection.matches(operation)
                    {
                        found.append(operation)
                    }
                }
            }
            found.sort { $0.sequence < $1.sequence }
        } else {
            found = try scan(selection, in: database)
        }
        if let limit = selection.limit, found.count > max(0, limit) { found.removeLast(found.count - max(0, limit)) }
        return found
    }

    static func count(_ selection: OperationSelection, in database: Database) throws -> Int {
        let conditions = sqlConditions(selection)
        guard conditions.isExact else { return try operations(selection, in: database).count }
        let sql = "SELECT COUNT(*) FROM \(name) WHERE \(conditions.sql)"
        guard case .integer(let total) = try database.scalar(sql, conditions.values) else { return 0 }
        return selection.limit.map { min(Int(total), max(0, $0)) } ?? Int(total)
    }

    static func highestSequence(in database: Database) throws -> Int? {
        guard case .integer(let highest) = try database.scalar(highestSQL) else { return nil }
        return Int(highest)
    }

    /// Walks the queue in sequence order from `afterSequence`, filtering in Swift, up to the limit.
    private static func scan(_ selection: OperationSelection, in database: Database) throws -> [PendingOperation] {
        let conditions = sqlConditions(selection)
        let statement = try database.cachedStatement(
            "SELECT \(columns) FROM \(name) WHERE \(conditions.sql) ORDER BY sequence")
        defer { statement.reset() }
        try statement.bind(conditions.values)
        var found: [PendingOperation] = []
        while try statement.step() {
            let operation = try operation(from: statement)
            guard selection.matches(operation) else { continue }
            found.append(operation)
            if let limit = selection.limit, found.count >= limit { break }
        }
        return found
    }

    /// The part of a selection SQL expresses (sequence, a single table, the operation id), and whether that
    /// is all of it (otherwise ``OperationSelection/matches(_:)`` checks each row).
    private static func sqlConditions(_ selection: OperationSelection)
        -> (sql: String, values: [SQLiteValue], isExact: Bool)
    {
        var sql = "sequence > ?"
        var values: [SQLiteValue] = [.integer(Int64(selection.afterSequence ?? Int(Int64.min)))]
        if let tables = selection.tables, tables.count == 1, let table = tables.first {
            sql += " AND table_name = ?"
            values.append(.text(table))
        }
        if let operationId = selection.operationId {
            sql += " AND operation_id = ?"
            values.append(.text(operationId))
        }
        let isExact = selection.itemIds == nil && (selection.tables.map { $0.count == 1 } ?? true)
        return (sql, values, isExact)
    }

    private static func operation(from statement: Statement) throws -> PendingOperation {
        let sequence = statement.integer(at: 0)
        func corrupt(_ column: String) -> SyncError {
            .corruptSystemTable(table: name, message: "operation \(sequence) has a missing or invalid '\(column)'")
        }
        guard let id = statement.text(at: 1) else { throw corrupt("operation_id") }
        guard let kind = statement.text(at: 2).flatMap(OperationKind.init(rawValue:)) else { throw corrupt("kind") }
        guard let table = statement.text(at: 3) else { throw corrupt("table_name") }
        guard let itemId = statement.text(at: 4) else { throw corrupt("item_id") }
        var item: JSONObject?
        if case .text = statement.value(at: 5) {
            do {
                item = try statement.withUTF8Bytes(at: 5) { try StoreCoding.object(utf8: $0) }
            } catch {
                throw corrupt("item")
            }
        }
        guard let state = statement.text(at: 6).flatMap(OperationState.init(rawValue:)) else {
            throw corrupt("state")
        }
        return PendingOperation(
            id: id,
            sequence: Int(sequence),
            kind: kind,
            table: table,
            itemId: itemId,
            item: item,
            state: state,
            version: Int(statement.integer(at: 7)),
            createdAt: Timestamp(ticks: statement.integer(at: 8)),
            attempts: Int(statement.integer(at: 9))
        )
    }
}
