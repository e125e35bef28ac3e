@_spi(SyncTablesTools) import SyncTablesSQLite

/// The store's own bookkeeping inside the database: which tables exist, their definitions, and which
/// generated column holds which property. Versioned with `PRAGMA user_version`.
///
/// Layout (version 6):
/// - `__synctables_tables(key, name, date_properties, indexes)`: one row per user table; `key` is the
///   lower-cased name, the lists are canonical JSON arrays.
/// - `__synctables_columns(table_key, property, column_number)`: the projected column `c<number>` of each
///   property.
/// - `__synctables_operations`: the context's operation queue (see ``SQLiteOperationTable``). Version 1
///   kept it as the JSON row table `__operations`; the step to version 2 moves its rows over.
/// - Each user table: `id`, `_json` and `_kinds` (see ``SQLiteRowCoding``), `_queued` (see
///   ``SQLiteQueuePointers``) and the projected columns; `__synctables_queued_items` holds the queue
///   pointers of items without a row. The step to version 3 adds `_column_only` (version 3 kept each item's
///   JSON with its strings of 16 bytes or more left out, listed there) and `_queued` to every table,
///   rebuilds the queue table without its unique index on the item and points every queued operation's
///   item at it. The step to version 4 adds `_kinds` and rewrites every row so that each value is kept
///   once, in its column (``SQLiteRowCoding/migrateRows(of:in:)``); `_column_only` stays, always `NULL`.
///   The step to version 5 rewrites the queue table with each operation's id, kind and state in their
///   compact form. The step to version 6 adds the queue's `ancestor` column.
struct SQLiteCatalog: Sendable {
    /// The layout version this code writes.
    static let currentVersion = 6

    /// Counts changes to the tables and their columns, so copies of what the catalog said can tell they
    /// are out of date.
    private(set) var revision = 0

    /// Tables by key.
    private(set) var tables: [String: SQLiteTableState] = [:] {
        didSet {
            revision += 1
            if tables.count != keysByName.count {
                keysByName = Dictionary(
                    tables.map { ($1.definition.name, $0) }, uniquingKeysWith: { first, _ in first })
            }
        }
    }
    /// The key of each table under its own spelling (tables are never dropped or renamed, so the map only
    /// changes when a table is added).
    private var keysByName: [String: String] = [:]

    /// Creates or upgrades the bookkeeping tables, then loads them.
    static func open(_ database: Database) throws -> SQLiteCatalog {
        let version = try database.userVersion()
        guard version <= currentVersion else {
            throw StoreError.database(
                code: 0,
                message:
                    "the store was written by a newer SyncTables (layout \(version), this one reads \(currentVersion))",
                sql: nil)
        }
        if version < currentVersion {
            try database.transaction {
                try migrate(database, from: version)
                if version < 4 {
                    // Rows are rewritten with the catalog of the migrated file.
                    // A table the catalog names but the file lacks has no rows.
                    for table in try load(database).tables.values
                    where try hasColumn("_json", table: table.definition.name, in: database) {
                        try SQLiteRowCoding.migrateRows(of: table, in: database)
                    }
                }
                try database.setUserVersion(currentVersion)
            }
        }
        return try load(database)
    }

    /// Forward migrations, one step per version.
    private static func migrate(_ database: Database, from version: Int) throws {
        if version < 1 {
            try database.execute(
                """
                CREATE TABLE IF NOT EXISTS __synctables_tables (
                    key TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL,
                    date_properties TEXT NOT NULL, indexes TEXT NOT NULL);
                CREATE TABLE IF NOT EXISTS __synctables_columns (
                    table_key TEXT NOT NULL, property TEXT NOT NULL, column_number INTEGER NOT NULL,
                    PRIMARY KEY (table_key, property));
                """)
        }
        if version < 2 {
            try database.execute(SQLiteOperationTable.layoutTwoCreateSQL)
            try SQLiteOperationTable.adoptLegacyRows(in: database)
        }
        if version < 3 {
            let rows = try database.prepare("SELECT key, name FROM __synctables_tables")
            var tables: [String: String] = [:]
            while try rows.step() { tables[rows.text(at: 0) ?? ""] = rows.text(at: 1) ?? "" }
            for name in tables.values {
                // A table the catalog names but the file lacks has nothing to extend.
                guard try hasColumn("_json", table: name, in: database) else { continue }
                for column in [SQLiteRowCoding.layoutThreeListColumn, SQLiteQueuePointers.column]
                where try !hasColumn(column, table: name, in: database) {
                    let type = column == SQLiteQueuePointers.column ? "INTEGER" : "TEXT"
                    try database.execute("ALTER TABLE \"\(name)\" ADD COLUMN \(column) \(type)")
                }
            }
            try SQLiteOperationTable.adoptLayoutTwoQueue(tables: tables, in: database)
        }
        if version < 4 {
            let rows = try database.prepare("SELECT name FROM __synctables_tables")
            var names: [String] = []
            while try rows.step() { names.append(rows.text(at: 0) ?? "") }
            for name in names where try hasColumn("_json", table: name, in: database) {
                if try !hasColumn(SQLiteRowCoding.kindsColumn, table: name, in: database) {
                    try database.execute("ALTER TABLE \"\(name)\" ADD COLUMN \(SQLiteRowCoding.kindsColumn) TEXT")
                }
            }
        }
        if version < 5 {
            try SQLiteOperationTable.compactLayoutFourQueue(in: database)
        }
        if version < 6 {
            try SQLiteOperationTable.addAncestorColumn(in: database)
        }
    }

    private static func hasColumn(_ column: String, table: String, in database: Database) throws -> Bool {
        let columns = try database.prepare("PRAGMA table_info(\"\(table)\")")
        while try columns.step() {
            if columns.text(at: 1) == column { return true }
        }
        return false
    }

    /// Reads the catalog from the database.
    static func load(_ database: Database) throws -> SQLiteCatalog {
        var catalog = SQLiteCatalog()
        let tables = try database.prepare("SELECT key, name, date_properties, indexes FROM __synctables_tables")
        while try tables.step() {
            let key = tables.text(at: 0) ?? ""
            let name = tables.text(at: 1) ?? key
            let dates = try stringLists(tables, column: 2, table: name).flatMap { $0 }
            let indexes = try stringLists(tables, column: 3, table: name)
            let definition = TableDefinition(name: name, dateProperties: Set(dates), indexes: indexes)
            catalog.tables[key] = SQLiteTableState(definition: definition, key: key)
        }
        let columns = try database.prepare(
            "SELECT table_key, property, column_number FROM __synctables_columns ORDER BY table_key, column_number")
        while try columns.step() {
            guard let key = columns.text(at: 0), let property = columns.text(at: 1) else { continue }
            catalog.tables[key]?.addColumn(property: property, number: Int(columns.integer(at: 2)))
        }
        return catalog
    }

    /// A short summary of the catalog tables in `database`, cheap to read and compare: it changes whenever a
    /// connection (of this process or another) adds a table, a column, a date property or an index.
    static func fingerprint(_ database: Database) throws -> SQLiteValue {
        try database.scalar(
            """
            SELECT (SELECT count(*) FROM __synctables_columns) || '|'
                || ifnull((SELECT group_concat(key || ' ' || date_properties || ' ' || indexes, '|')
                    FROM __synctables_tables), '')
            """)
    }

    /// Reads the catalog again (another connection changed it), with a ``revision`` above every earlier one.
    mutating func reload(_ database: Database) throws {
        let earlier = revision
        self = try Self.load(database)
        revision = earlier + 1
    }

    subscript(key: String) -> SQLiteTableState? {
        tables[key]
    }

    /// The state of a defined table, or ``StoreError/unknownTable(_:)``.
    func table(named name: String) throws -> SQLiteTableState {
        // Callers nearly always use the table's own spelling: then the name was validated when it was defined.
        if let key = keysByName[name], let table = tables[key] { return table }
        guard let table = tables[try TableName.key(name)] else { throw StoreError.unknownTable(name) }
        return table
    }

    // MARK: Changes (run inside the caller's transaction)

    /// Creates or extends a table: SQL table, catalog row, date re-projection, indexes.
    mutating func define(_ definition: TableDefinition, in database: Database) throws {
        let key = try TableName.key(definition.name)
        var table: SQLiteTableState
        if let existing = tables[key] {
            table = existing
            let newDates = definition.dateProperties.subtracting(table.definition.dateProperties)
            let newIndexes = definition.indexes.filter { !table.definition.indexes.contains($0) }
            guard !newDates.isEmpty || !newIndexes.isEmpty else { return }
            table.definition.dateProperties.formUnion(newDates)
            table.definition.indexes.append(contentsOf: newIndexes)
            // Strings already stored in a property that just became a date turn into instants.
            for property in newDates.sorted() {
                guard let column = table.column(for: property) else { continue }
                try database.run(
                    """
                    UPDATE \(table.quotedName) SET "\(column.name)" = \(SQLiteFilterFunctions.Name.instant)("\(column.name)")
                    WHERE typeof("\(column.name)") = 'text'
                    AND \(SQLiteFilterFunctions.Name.instant)("\(column.name)") IS NOT NULL
                    """)
            }
        } else {
            table = SQLiteTableState(definition: definition, key: key)
            try database.execute(
                "CREATE TABLE IF NOT EXISTS \(table.quotedName) (id TEXT PRIMARY KEY NOT NULL, _json TEXT NOT NULL, "
                    + "\(SQLiteRowCoding.kindsColumn) TEXT, \(SQLiteQueuePointers.column) INTEGER)")
        }
        try database.run(
            "INSERT OR REPLACE INTO __synctables_tables (key, name, date_properties, indexes) VALUES (?, ?, ?, ?)",
            [
                .text(key), .text(table.definition.name),
                .text(
                    StoreCoding.canonicalJSONText(.array(table.definition.dateProperties.sorted().map { .string($0) }))),
                .text(
                    StoreCoding.canonicalJSONText(
                        .array(table.definition.indexes.map { .array($0.map { .string($0) }) }))),
            ])
        tables[key] = table
        for index in table.definition.indexes { try createIndex(index, on: key, in: database) }
    }

    /// Adds projected columns for properties the table has never seen.
    mutating func addColumns(_ properties: some Sequence<String>, to key: String, in database: Database) throws {
        guard var table = tables[key] else { return }
        for property in properties where property != "id" && table.column(for: property) == nil {
            let number = table.lastColumnNumber + 1
            // No declared type: the column has no affinity, so every value keeps its storage class.
            try database.execute("ALTER TABLE \(table.quotedName) ADD COLUMN \"c\(number)\"")
            try database.run(
                "INSERT INTO __synctables_columns (table_key, property, column_number) VALUES (?, ?, ?)",
                [.text(key), .text(property), .integer(Int64(number))])
            table.addColumn(property: property, number: number)
        }
        tables[key] = table
    }

    private mutating func createIndex(_ properties: [String], on key: String, in database: Database) throws {
        try addColumns(properties, to: key, in: database)
        guard let table = tables[key], !properties.isEmpty else { return }
        let columns = properties.map { $0 == "id" ? "id" : (table.column(for: $0)?.name ?? "id") }
        let name = "__synctables_ix_\(key)_" + columns.joined(separator: "_")
        let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
        try database.execute("CREATE INDEX IF NOT EXISTS \"\(name)\" ON \(table.quotedName) (\(list))")
    }

    private static func stringLists(_ statement: Statement, column: Int32, table: String) throws -> [[String]] {
        let object = try StoreCoding.object(parsing: "{\"v\":\(statement.text(at: column) ?? "[]")}")
        guard case .array(let values)? = object["v"] else {
            throw StoreError.invalidStoredData(table: table, id: nil, message: "unreadable table definition")
        }
        return values.map { value in
            switch value {
            case .string(let text): [text]
            case .array(let inner): inner.compactMap { if case .string(let text) = $0 { text } else { nil } }
            default: []
            }
        }
    }
}
