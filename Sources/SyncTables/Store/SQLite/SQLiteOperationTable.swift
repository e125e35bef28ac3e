@_spi(SyncTablesTools) import SyncTablesSQLite

/// `SQLiteStore`'s operation queue: a relational table of its own rather than a JSON row table, because
/// every local write and every pushed operation reads and writes it.
///
/// The sequence is the rowid, so push order needs no index, and the table has no other: an item's
/// operation is found through the item's row or the side table (``SQLiteQueuePointers``), so queuing an
/// operation appends one row to one B-tree. `operation_id`, `kind` and `state` are kept compact (see
/// ``code(of:)-(OperationKind)`` and ``storedID(_:)``); `created_at` holds `Timestamp.ticks`; `item` the
/// canonical JSON of a deleted item, else `NULL`; `ancestor` the canonical JSON of an update's or delete's
/// ancestor (``PendingOperation/ancestor``), else `NULL` (catalog layout 6 added it). At most one operation is queued per item: the queue's
/// writes check the item's pointer (catalog layout 2 kept a unique index over `(table_name, item_id)`
/// instead).
enum SQLiteOperationTable {
    /// The table's name; the `__synctables_` prefix keeps it out of the user tables' namespace.
    static let name = "__synctables_operations"

    /// `operation_id` has no type, so a UUID's 16 bytes stay a blob and any other id stays text.
    static let createSQL = """
        CREATE TABLE IF NOT EXISTS \(name) (
            sequence INTEGER PRIMARY KEY NOT NULL, operation_id NOT NULL, kind INTEGER NOT NULL,
            table_name TEXT NOT NULL, item_id TEXT NOT NULL, item TEXT, state INTEGER NOT NULL,
            version INTEGER NOT NULL, created_at INTEGER NOT NULL, attempts INTEGER NOT NULL, ancestor TEXT);
        """

    /// The columns of catalog layouts 2 to 5, which the steps of older files read and write.
    static let legacyColumns =
        "sequence, operation_id, kind, table_name, item_id, item, state, version, created_at, attempts"
    static let columns = legacyColumns + ", ancestor"
    private static let insertSQL =
        "INSERT INTO \(name) (\(columns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"
    private static let legacyInsertSQL =
        "INSERT INTO \(name) (\(legacyColumns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"
    /// Rewrites the operation stored at sequence `?12` (its sequence may change).
    private static let updateSQL = """
        UPDATE \(name) SET sequence = ?1, operation_id = ?2, kind = ?3, table_name = ?4, item_id = ?5, item = ?6,
            state = ?7, version = ?8, created_at = ?9, attempts = ?10, ancestor = ?11 WHERE sequence = ?12
        """
    /// Parameters per operation.
    private static let parameters: Int32 = 11
    /// Operations per multi-row insert of new operations (11 parameters each; SQLite 3.15 allows 999).
    static let blockRows = 64
    private static let blockInsertSQL =
        "INSERT INTO \(name) (\(columns)) VALUES "
        + Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: blockRows).joined(separator: ", ")
    private static let lookupSQL = "SELECT \(columns) FROM \(name) WHERE sequence = ?"
    private static let removeSQL = "DELETE FROM \(name) WHERE sequence = ?"
    private static let highestSQL = "SELECT MAX(sequence) FROM \(name)"

    // MARK: Writes

    /// Stores each operation, replacing the one queued for its item (whatever its sequence), and points the
    /// item at it.
    static func save(_ operations: [PendingOperation], in storage: SQLiteStorage) throws {
        let database = storage.database
        for operation in operations {
            let sequence = Int64(operation.sequence)
            guard
                let found = try SQLiteQueuePointers.find(table: operation.table, itemId: operation.itemId, in: storage)
            else {
                try insert([operation], in: database)
                try SQLiteQueuePointers.add(sequence, table: operation.table, itemId: operation.itemId, in: storage)
                continue
            }
            let update = try database.cachedStatement(updateSQL)
            defer { update.reset() }
            update.reset()
            try bind(operation, to: update)
            try update.bind(found.sequence, at: 12)
            try update.run()
            if found.sequence != sequence {
                try SQLiteQueuePointers.update(
                    to: sequence, table: operation.table, itemId: operation.itemId, at: found.location, in: database)
            }
        }
    }

    /// Appends operations to the table, 64 rows per statement where it can (stepping one statement per row
    /// cost more than binding it), pointing no item at them.
    static func insert(_ operations: [PendingOperation], in database: Database) throws {
        try insert(operations, compact: true, in: database)
    }

    /// ``insert(_:in:)``, spelling the id, kind and state as text and leaving out the ancestor when `compact`
    /// is `false` (the queue table of layouts 2 to 4, which the steps of older files write).
    static func insert(_ operations: [PendingOperation], compact: Bool, in database: Database) throws {
        var written = 0
        if compact, operations.count >= blockRows {
            let block = try database.cachedStatement(blockInsertSQL)
            defer { block.reset() }
            while operations.count - written >= blockRows {
                block.reset()
                for row in 0..<blockRows {
                    try bind(operations[written + row], to: block, offset: Int32(row) * parameters)
                }
                try block.run()
                written += blockRows
            }
        }
        let single = try database.cachedStatement(compact ? insertSQL : legacyInsertSQL)
        defer { single.reset() }
        for operation in operations.dropFirst(written) {
            single.reset()
            try bind(operation, to: single, compact: compact)
            try single.run()
        }
    }

    /// Queues operations for items with none queued; `false`, changing nothing, when one has one or two
    /// name the same item.
    static func insertNew(_ operations: [PendingOperation], in storage: SQLiteStorage) throws -> Bool {
        struct OperationExists: Error {}
        do {
            try storage.database.savepoint {
                for operation in operations {
                    guard
                        try SQLiteQueuePointers.find(table: operation.table, itemId: operation.itemId, in: storage)
                            == nil
                    else { throw OperationExists() }
                    try insert([operation], in: storage.database)
                    try SQLiteQueuePointers.add(
                        Int64(operation.sequence), table: operation.table, itemId: operation.itemId, in: storage)
                }
            }
            return true
        } catch is OperationExists {
            return false
        }
    }

    /// Binds an operation's columns to parameters `offset + 1` … `offset + 11`, in ``columns`` order, or the
    /// ten of ``legacyColumns`` when not `compact` (the statement must not be running: reset it first).
    private static func bind(
        _ operation: PendingOperation, to statement: Statement, offset: Int32 = 0, compact: Bool = true
    ) throws {
        try statement.bind(Int64(operation.sequence), at: offset + 1)
        if compact {
            try statement.bind(storedID(operation.id), at: offset + 2)
            try statement.bind(code(of: operation.kind), at: offset + 3)
            try statement.bind(code(of: operation.state), at: offset + 7)
        } else {
            try statement.bind(operation.id, at: offset + 2)
            try statement.bind(operation.kind.rawValue, at: offset + 3)
            try statement.bind(operation.state.rawValue, at: offset + 7)
        }
        try statement.bind(operation.table, at: offset + 4)
        try statement.bind(operation.itemId, at: offset + 5)
        if let item = operation.item {
            try statement.bind(utf8: StoreCoding.canonicalJSONBytes(item), at: offset + 6)
        } else {
            try statement.bind(.null, at: offset + 6)
        }
        try statement.bind(Int64(operation.version), at: offset + 8)
        try statement.bind(operation.createdAt.ticks, at: offset + 9)
        try statement.bind(Int64(operation.attempts), at: offset + 10)
        guard compact else { return }
        if let ancestor = operation.ancestor {
            try statement.bind(utf8: StoreCoding.canonicalJSONBytes(ancestor), at: offset + 11)
        } else {
            try statement.bind(.null, at: offset + 11)
        }
    }

    /// Removes the operations queued for these operations' items, and their pointers.
    static func remove(_ operations: [PendingOperation], in storage: SQLiteStorage) throws {
        let database = storage.database
        for operation in operations {
            guard
                let found = try SQLiteQueuePointers.find(table: operation.table, itemId: operation.itemId, in: storage)
            else { continue }
            try database.run(removeSQL, [.integer(found.sequence)])
            try SQLiteQueuePointers.remove(
                table: operation.table, itemId: operation.itemId, at: found.location, in: database)
        }
    }

    // MARK: Reads

    static func operation(table: String, itemId: String, in storage: SQLiteStorage) throws -> PendingOperation? {
        guard let found = try SQLiteQueuePointers.find(table: table, itemId: itemId, in: storage) else { return nil }
        let statement = try storage.database.cachedStatement(lookupSQL)
        defer { statement.reset() }
        try statement.bind(found.sequence, at: 1)
        guard try statement.step() else {
            throw SyncError.corruptSystemTable(
                table: name, message: "item '\(itemId)' of '\(table)' points at a missing operation \(found.sequence)")
        }
        return try operation(from: statement)
    }

    static func operations(_ selection: OperationSelection, in storage: SQLiteStorage) throws -> [PendingOperation] {
        let database = storage.database
        var found: [PendingOperation]
        if let tables = selection.tables, let itemIds = selection.itemIds {
            // Point lookups through the items' pointers: no statement grows with the number of ids.
            found = []
            for table in tables {
                for itemId in itemIds {
                    if let operation = try operation(table: table, itemId: itemId, in: storage),
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

    static func count(_ selection: OperationSelection, in storage: SQLiteStorage) throws -> Int {
        let database = storage.database
        let conditions = sqlConditions(selection)
        guard conditions.isExact else { return try operations(selection, in: storage).count }
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
            values.append(storedID(operationId))
        }
        let isExact = selection.itemIds == nil && (selection.tables.map { $0.count == 1 } ?? true)
        return (sql, values, isExact)
    }

    /// Reads a row in ``columns`` order (or ``legacyColumns``), in the compact form or the text form of layouts
    /// 2 to 4.
    static func operation(from statement: Statement) throws -> PendingOperation {
        let sequence = statement.integer(at: 0)
        func corrupt(_ column: String) -> SyncError {
            .corruptSystemTable(table: name, message: "operation \(sequence) has a missing or invalid '\(column)'")
        }
        guard let id = operationID(from: statement.value(at: 1)) else { throw corrupt("operation_id") }
        guard let kind = Self.kind(from: statement.value(at: 2)) else { throw corrupt("kind") }
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
        guard let state = Self.state(from: statement.value(at: 6)) else {
            throw corrupt("state")
        }
        var ancestor: JSONObject?
        if statement.columnCount > 10, case .text = statement.value(at: 10) {
            do {
                ancestor = try statement.withUTF8Bytes(at: 10) { try StoreCoding.object(utf8: $0) }
            } catch {
                throw corrupt("ancestor")
            }
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
            attempts: Int(statement.integer(at: 9)),
            ancestor: ancestor
        )
    }
}
