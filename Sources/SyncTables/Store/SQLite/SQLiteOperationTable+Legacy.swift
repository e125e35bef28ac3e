@_spi(SyncTablesTools) import SyncTablesSQLite

extension SQLiteOperationTable {
    /// The JSON row table that held the queue in catalog layout 1.
    static let legacyTable = SystemTables.operations

    /// The queue table of catalog layout 2: the same columns, with a unique index on the item that layout 3
    /// replaced by the items' pointers (``SQLiteQueuePointers``).
    static let layoutTwoCreateSQL = """
        CREATE TABLE IF NOT EXISTS \(name) (
            sequence INTEGER PRIMARY KEY NOT NULL, operation_id TEXT NOT NULL, kind TEXT NOT NULL,
            table_name TEXT NOT NULL, item_id TEXT NOT NULL, item TEXT, state TEXT NOT NULL,
            version INTEGER NOT NULL, created_at INTEGER NOT NULL, attempts INTEGER NOT NULL,
            UNIQUE (table_name, item_id));
        """

    /// The queue table of catalog layouts 3 and 4: the id, kind and state as text.
    static let layoutFourCreateSQL = """
        CREATE TABLE IF NOT EXISTS \(name) (
            sequence INTEGER PRIMARY KEY NOT NULL, operation_id TEXT NOT NULL, kind TEXT NOT NULL,
            table_name TEXT NOT NULL, item_id TEXT NOT NULL, item TEXT, state TEXT NOT NULL,
            version INTEGER NOT NULL, created_at INTEGER NOT NULL, attempts INTEGER NOT NULL);
        """

    /// Layout 4 to 5: the queue table rewritten in its compact form (see ``createSQL``, which has the ancestor
    /// column of layout 6 too). Runs inside the catalog's migration transaction.
    static func compactLayoutFourQueue(in database: Database) throws {
        try database.execute("ALTER TABLE \(name) RENAME TO \(name)_layout4; \(createSQL)")
        let rows = try database.prepare("SELECT \(legacyColumns) FROM \(name)_layout4 ORDER BY sequence")
        var operations: [PendingOperation] = []
        while try rows.step() { operations.append(try operation(from: rows)) }
        rows.reset()
        try insert(operations, in: database)
        try database.execute("DROP TABLE \(name)_layout4")
    }

    /// Layout 5 to 6: the ancestor column, unless the step to layout 5 created the table with it.
    static func addAncestorColumn(in database: Database) throws {
        let columns = try database.prepare("PRAGMA table_info(\(name))")
        while try columns.step() {
            if columns.text(at: 1) == "ancestor" { return }
        }
        try database.execute("ALTER TABLE \(name) ADD COLUMN ancestor TEXT")
    }

    /// Layout 2 to 3: the queue table without its unique index, and every queued operation's pointer on its
    /// item's row, or in the side table for an item without one. Runs inside the catalog's migration
    /// transaction; `tables` maps each user table's key (``TableName``) to its name.
    static func adoptLayoutTwoQueue(tables: [String: String], in database: Database) throws {
        try database.execute(
            """
            ALTER TABLE \(name) RENAME TO \(name)_layout2;
            \(layoutFourCreateSQL)
            INSERT INTO \(name) (\(legacyColumns)) SELECT \(legacyColumns) FROM \(name)_layout2;
            DROP TABLE \(name)_layout2;
            \(SQLiteQueuePointers.createSideTableSQL)
            """)
        let operations = try database.prepare("SELECT sequence, table_name, item_id FROM \(name) ORDER BY sequence")
        var pointers: [(sequence: Int64, table: String, itemId: String)] = []
        while try operations.step() {
            pointers.append((operations.integer(at: 0), operations.text(at: 1) ?? "", operations.text(at: 2) ?? ""))
        }
        for pointer in pointers {
            if let key = try? TableName.key(pointer.table), let table = tables[key] {
                try database.run(
                    "UPDATE \"\(table)\" SET \(SQLiteQueuePointers.column) = ? WHERE id = ? AND \(SQLiteQueuePointers.column) IS NULL",
                    [.integer(pointer.sequence), .text(pointer.itemId)])
                if database.changes > 0 { continue }
            }
            try database.run(
                "INSERT INTO \(SQLiteQueuePointers.sideTable) (table_name, item_id, sequence) VALUES (?, ?, ?)",
                [.text(pointer.table), .text(pointer.itemId), .integer(pointer.sequence)])
        }
    }

    /// Moves the operations of a layout-1 store (JSON rows of `__operations`) into the relational table,
    /// then drops the old table and its catalog entries. Runs inside the catalog's migration transaction, so
    /// a failure (an unreadable row, a full disk) leaves the file as it was.
    static func adoptLegacyRows(in database: Database) throws {
        let key = legacyTable.lowercased()
        let known = try database.scalar("SELECT COUNT(*) FROM __synctables_tables WHERE key = ?", [.text(key)])
        guard case .integer(let count) = known, count > 0 else { return }

        let rows = try database.prepare("SELECT _json FROM \"\(legacyTable)\"")
        var operations: [PendingOperation] = []
        while try rows.step() {
            let row: JSONObject
            do {
                row = try rows.withUTF8Bytes(at: 0) { try StoreCoding.object(utf8: $0) }
            } catch {
                throw SyncError.corruptSystemTable(
                    table: legacyTable, message: "a queued operation is not JSON: \(error)")
            }
            operations.append(try PendingOperation(row: row))
        }
        rows.reset()
        try insert(operations, compact: false, in: database)
        try database.execute("DROP TABLE \"\(legacyTable)\"")
        try database.run("DELETE FROM __synctables_tables WHERE key = ?", [.text(key)])
        try database.run("DELETE FROM __synctables_columns WHERE table_key = ?", [.text(key)])
    }
}
