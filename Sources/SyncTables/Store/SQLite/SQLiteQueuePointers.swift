@_spi(SyncTablesTools) import SyncTablesSQLite

/// How `SQLiteStore` finds the operation queued for an item without an index on the queue.
///
/// The queue table is ordered by sequence only; an index on `(table_name, item_id)` cost every queued
/// write a second B-tree insert and about 50 bytes of log (in raw SQL, dropping it gave +10 % on batched
/// inserts). Instead an item's row carries the sequence of its operation in `_queued`, written with the row
/// itself. An item with no row (a queued delete, an operation of a table the store does not hold) has an
/// entry in `__synctables_queued_items` instead. Every queued operation has exactly one of the two, its
/// pointer; a row that is deleted hands its pointer to the side table first.
enum SQLiteQueuePointers {
    /// The column of every user table that holds the sequence of the item's queued operation, or `NULL`.
    static let column = "_queued"

    /// The pointers of items without a row.
    static let sideTable = "__synctables_queued_items"

    static let createSideTableSQL = """
        CREATE TABLE IF NOT EXISTS \(sideTable) (
            table_name TEXT NOT NULL, item_id TEXT NOT NULL, sequence INTEGER NOT NULL,
            PRIMARY KEY (table_name, item_id)) WITHOUT ROWID;
        """

    /// Where an item's pointer is.
    enum Location {
        /// On the item's row in this table.
        case row(SQLiteTableState)
        /// In the side table.
        case side
    }

    /// The sequence of the operation queued for the item and where its pointer is, or `nil`.
    static func find(table: String, itemId: String, in storage: SQLiteStorage) throws -> (
        sequence: Int64, location: Location
    )? {
        let database = storage.database
        if let state = try? storage.catalog.table(named: table) {
            let statement = try database.cachedStatement("SELECT \(column) FROM \(state.quotedName) WHERE id = ?")
            defer { statement.reset() }
            try statement.bind(itemId, at: 1)
            if try statement.step(), !statement.isNull(at: 0) {
                return (statement.integer(at: 0), .row(state))
            }
        }
        let statement = try database.cachedStatement(
            "SELECT sequence FROM \(sideTable) WHERE table_name = ? AND item_id = ?")
        defer { statement.reset() }
        try statement.bind(table, at: 1)
        try statement.bind(itemId, at: 2)
        return try statement.step() ? (statement.integer(at: 0), .side) : nil
    }

    /// Points the item at `sequence`: on its row when it has one, else in the side table. The item must
    /// have no pointer yet.
    static func add(_ sequence: Int64, table: String, itemId: String, in storage: SQLiteStorage) throws {
        let database = storage.database
        if let state = try? storage.catalog.table(named: table) {
            try database.run(
                "UPDATE \(state.quotedName) SET \(column) = ? WHERE id = ?", [.integer(sequence), .text(itemId)])
            if database.changes > 0 { return }
        }
        try database.run(
            "INSERT INTO \(sideTable) (table_name, item_id, sequence) VALUES (?, ?, ?)",
            [.text(table), .text(itemId), .integer(sequence)])
    }

    /// Moves the item's pointer, found at `location`, to `sequence`.
    static func update(
        to sequence: Int64, table: String, itemId: String, at location: Location, in database: Database
    ) throws {
        switch location {
        case .row(let state):
            try database.run(
                "UPDATE \(state.quotedName) SET \(column) = ? WHERE id = ?", [.integer(sequence), .text(itemId)])
        case .side:
            try database.run(
                "UPDATE \(sideTable) SET sequence = ? WHERE table_name = ? AND item_id = ?",
                [.integer(sequence), .text(table), .text(itemId)])
        }
    }

    /// Removes the item's pointer, found at `location`.
    static func remove(table: String, itemId: String, at location: Location, in database: Database) throws {
        switch location {
        case .row(let state):
            try database.run("UPDATE \(state.quotedName) SET \(column) = NULL WHERE id = ?", [.text(itemId)])
        case .side:
            try database.run(
                "DELETE FROM \(sideTable) WHERE table_name = ? AND item_id = ?", [.text(table), .text(itemId)])
        }
    }

    /// Before rows of `table` are deleted: hands the pointers of those that `rowsSQL` selects (a
    /// `SELECT _queued FROM … WHERE …` over the table, with `bindings`) to the side table, under the
    /// table name and item id their operations name.
    static func keepPointers(ofRows rowsSQL: String, bindings: [SQLiteValue], in database: Database) throws {
        try database.run(
            """
            INSERT INTO \(sideTable) (table_name, item_id, sequence)
            SELECT table_name, item_id, sequence FROM \(SQLiteOperationTable.name) WHERE sequence IN (\(rowsSQL))
            """, bindings)
    }

    /// Whether any item of `table` (as operations name it) has its pointer in the side table.
    static func sideTableHasItems(of table: String, in database: Database) throws -> Bool {
        let statement = try database.cachedStatement("SELECT 1 FROM \(sideTable) WHERE table_name = ? LIMIT 1")
        defer { statement.reset() }
        try statement.bind(table, at: 1)
        return try statement.step()
    }
}
