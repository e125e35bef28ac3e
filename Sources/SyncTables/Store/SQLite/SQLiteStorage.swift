@_spi(SyncTablesTools) import SyncTablesCore
@_spi(SyncTablesTools) import SyncTablesSQLite

/// The synchronous heart of ``SQLiteStore``: one connection, the catalog, and every table operation.
///
/// Owned by the store actor and only ever used on its executor thread, so it needs no locking.
final class SQLiteStorage {
    /// SQLite 3.15's default limit of bound parameters per statement.
    static let parameterLimit = SQLiteTableState.parameterLimit

    let database: Database
    private(set) var catalog: SQLiteCatalog

    /// Registers the filter functions and opens (creating or migrating) the catalog.
    init(database: Database) throws {
        self.database = database
        try SQLiteFilterFunctions.register(on: database)
        self.catalog = try SQLiteCatalog.open(database)
    }

    // MARK: Transactions

    /// `PRAGMA data_version` when the catalog was last checked against the file; `nil` checks it next time.
    private var checkedDataVersion: SQLiteValue?
    /// ``SQLiteCatalog/fingerprint(_:)`` of the file when ``catalog`` was last checked; `nil` reloads it.
    private var checkedFingerprint: SQLiteValue?

    /// Runs `body` atomically: in a transaction (a savepoint when one is already open), restoring the
    /// in-memory catalog if it rolls back. A new transaction first checks the catalog against the file
    /// (see ``revalidateCatalog()``), under the write lock, so column numbers are never taken twice.
    func atomically<Result>(_ body: () throws -> Result) throws -> Result {
        let saved = catalog
        let outermost = !database.isInTransaction
        do {
            return try database.transaction(.immediate) {
                if outermost { try revalidateCatalog() }
                return try body()
            }
        } catch {
            // The restored catalog may predate a reload this transaction made: check it afresh next time.
            catalog = saved
            (checkedDataVersion, checkedFingerprint) = (nil, nil)
            throw error
        }
    }

    /// Runs a read in one snapshot of the file (a read transaction unless one is open), with the catalog
    /// checked against that snapshot first: rows another process wrote may use columns this one has not
    /// seen yet.
    func reading<Result>(_ body: () throws -> Result) throws -> Result {
        guard !database.isInTransaction else { return try body() }
        return try database.transaction(.deferred) {
            try revalidateCatalog()
            return try body()
        }
    }

    /// Reloads the catalog when another connection (this process's or another's) changed it since it was
    /// last checked. Runs at the start of each transaction: `PRAGMA data_version` tells (cheaply) whether any
    /// other connection committed at all, and only then the catalog's fingerprint is read.
    private func revalidateCatalog() throws {
        let dataVersion = try database.scalar("PRAGMA data_version")
        guard dataVersion != checkedDataVersion else { return }
        let fingerprint = try SQLiteCatalog.fingerprint(database)
        if fingerprint != checkedFingerprint { try catalog.reload(database) }
        (checkedDataVersion, checkedFingerprint) = (dataVersion, fingerprint)
    }

    // MARK: Tables

    func defineTable(_ definition: TableDefinition) throws {
        try atomically { try catalog.define(definition, in: database) }
    }

    func tableDefinitions() throws -> [TableDefinition] {
        try reading { catalog.tables.keys.sorted().compactMap { catalog.tables[$0]?.definition } }
    }

    // MARK: Reads

    func read(_ query: StoreQuery) throws -> [JSONObject] {
        try readRows(query) { statement, table in try decode(statement, table: table) }
    }

    /// The canonical JSON text of the matching rows, assembled from their columns (see ``SQLiteRowCoding``).
    func readJSON(_ query: StoreQuery) throws -> [[UInt8]] {
        try readRows(query) { statement, table in try decode(statement, table: table).jsonBytes }
    }

    /// Runs the query's `SELECT id, _json, _kinds, …` and turns each result row into a value.
    private func readRows<Row>(_ query: StoreQuery, _ row: (Statement, SQLiteTableState) throws -> Row) throws
        -> [Row]
    {
        try reading { try readRowsInSnapshot(query, row) }
    }

    private func readRowsInSnapshot<Row>(_ query: StoreQuery, _ row: (Statement, SQLiteTableState) throws -> Row)
        throws -> [Row]
    {
        let table = try catalog.table(named: query.table)
        let select = try rowSelectStatement(table: table, query: query)
        return try SQLiteValueSets.with(select.valueSets, in: database) {
            let statement = try database.cachedStatement(select.sql)
            defer { statement.reset() }
            try statement.bind(select.bindings)
            var rows: [Row] = []
            while try statement.step() {
                rows.append(try row(statement, table))
            }
            return rows
        }
    }

    func count(_ query: StoreQuery) throws -> Int {
        try reading { try countInSnapshot(query) }
    }

    private func countInSnapshot(_ query: StoreQuery) throws -> Int {
        let table = try catalog.table(named: query.table)
        var unpaged = query
        unpaged.limit = nil
        unpaged.offset = 0
        let select = try selectStatement(columns: "COUNT(*)", table: table, query: unpaged, ordered: false)
        let total = try SQLiteValueSets.with(select.valueSets, in: database) {
            if case .integer(let count) = try database.scalar(select.sql, select.bindings) { return Int(count) }
            return 0
        }
        let remaining = max(0, total - max(0, query.offset))
        return query.limit.map { min(remaining, max(0, $0)) } ?? remaining
    }

    func lookup(table name: String, id: String) throws -> JSONObject? {
        try reading { try lookupInSnapshot(table: name, id: id) }
    }

    private func lookupInSnapshot(table name: String, id: String) throws -> JSONObject? {
        let table = try catalog.table(named: name)
        let statement = try database.cachedStatement(table.lookupSQL)
        defer { statement.reset() }
        try statement.bind(id, at: 1)
        guard try statement.step() else { return nil }
        return try decode(statement, table: table)
    }

    // MARK: Writes

    func upsert(table name: String, items: [JSONObject]) throws {
        try write(table: name, items: items, canonicalJSON: nil, replacing: true)
    }

    /// Inserts the items when none of their ids is stored; `false`, changing nothing, when one is.
    /// `canonicalJSON`, when given, is each item's `_json` text, serialized by the caller; a list that
    /// does not have one text per item is ignored.
    func insertNew(table name: String, items: [JSONObject], canonicalJSON: [[UInt8]]?) throws -> Bool {
        let texts = canonicalJSON?.count == items.count ? canonicalJSON : nil
        do {
            try write(table: name, items: items, canonicalJSON: texts, replacing: false)
            return true
        } catch is RowExists {
            return false
        }
    }

    /// Inserts rows for new items together with their queued operations, all or none: each row carries its
    /// operation's sequence (``SQLiteQueuePointers``), so the queue needs no index on the item. `false`,
    /// changing nothing, when an id is stored, repeated or has an operation queued already.
    func insertNewQueued(
        table name: String, items: [JSONObject], canonicalJSON: [[UInt8]], operations: [PendingOperation]
    ) throws -> Bool {
        let texts = canonicalJSON.count == items.count ? canonicalJSON : nil
        let sequences = operations.map { Int64($0.sequence) }
        // Each operation must name its row; anything else takes the two steps, each checking its own part.
        guard operations.count == items.count,
            try zip(items, operations).allSatisfy({ item, operation in
                try operation.table == name && operation.itemId == ItemKey.id(of: item, table: name)
            })
        else {
            return try atomicallyRefusing {
                guard try insertNew(table: name, items: items, canonicalJSON: texts),
                    try SQLiteOperationTable.insertNew(operations, in: self)
                else { throw RowExists() }
            }
        }
        return try atomicallyRefusing {
            // A new row's key refuses a stored or repeated id; an id whose pointer is in the side table (a
            // queued delete, say) is looked for only when the table has such pointers at all.
            if try SQLiteQueuePointers.sideTableHasItems(of: name, in: database) {
                for operation in operations
                where try SQLiteQueuePointers.find(table: name, itemId: operation.itemId, in: self) != nil {
                    throw RowExists()
                }
            }
            try write(table: name, items: items, canonicalJSON: texts, replacing: false, queued: sequences)
            try SQLiteOperationTable.insert(operations, in: database)
        }
    }

    /// Runs `body` atomically; `false`, with everything rolled back, when it throws ``RowExists``.
    private func atomicallyRefusing(_ body: () throws -> Void) throws -> Bool {
        do {
            try atomically(body)
            return true
        } catch is RowExists {
            return false
        }
    }

    /// Thrown inside ``write(table:items:canonicalJSON:replacing:queued:)`` to roll the batch back when a
    /// row exists.
    private struct RowExists: Error {}

    /// Inserts the items; an item whose id is stored replaces its row, or, with `replacing` off, rolls the
    /// whole batch back with ``RowExists``. The `_json` text is `canonicalJSON[i]` when given; a new row's
    /// `_queued` is `queued[i]` when given (a replaced row keeps its own).
    private func write(
        table name: String, items: [JSONObject], canonicalJSON: [[UInt8]]?, replacing: Bool, queued: [Int64]? = nil
    ) throws {
        guard !items.isEmpty else {
            _ = try reading { try catalog.table(named: name) }
            return
        }
        // One savepoint (or transaction) for the whole batch: an item without an id rolls back the items
        // before it too, so a refused batch leaves the table untouched.
        try atomically {
            var table = try catalog.table(named: name)
            // New rows go in blocks of many rows per statement; what is left over (and every replacing
            // write) one row at a time.
            let written =
                replacing ? 0 : try insertInBlocks(items, canonicalJSON: canonicalJSON, queued: queued, table: &table)
            var statements = try upsertStatements(table)
            defer { for statement in statements { statement.reset() } }
            var touched = Array(repeating: false, count: statements.count)
            for (index, item) in items.enumerated().dropFirst(written) {
                let id = try ItemKey.id(of: item, table: name)
                let json = canonicalJSON?[index] ?? SQLiteRowCoding.storedJSON(item)
                let sequence = queued.map { SQLiteValue.integer($0[index]) } ?? .null
                let binding = try bind(
                    item, id: id, json: json, queued: sequence, to: statements, touched: &touched, table: table)
                if case .missing(let properties) = binding {
                    // New properties: add their columns, then bind the item again with the wider statements.
                    try catalog.addColumns(properties, to: table.key, in: database)
                    table = try catalog.table(named: name)
                    statements = try upsertStatements(table)
                    touched = Array(repeating: false, count: statements.count)
                    _ = try bind(
                        item, id: id, json: json, queued: sequence, to: statements, touched: &touched, table: table)
                }
                do {
                    try statements[0].run()
                } catch let error as SQLiteError where error.isConstraintViolation {
                    guard replacing else { throw RowExists() }
                    // The row exists: rewrite it with the same values.
                    var rewriting = statements
                    rewriting[0] = try database.cachedStatement(table.replaceSQL)
                    _ = try bind(
                        item, id: id, json: json, queued: sequence, to: rewriting, touched: &touched, table: table)
                    try rewriting[0].run()
                    statements[0].reset()
                    // Every further group of columns too: its unbound columns must become NULL, as in a
                    // replaced row, not keep the old values.
                    touched = Array(repeating: true, count: touched.count)
                }
                for index in statements.indices.dropFirst() where touched[index] {
                    try statements[index].bind(id, at: 1)
                    try statements[index].run()
                }
            }
        }
    }

    /// Inserts whole blocks of ``SQLiteTableState/blockRows`` new items with one statement each and returns
    /// how many items it wrote; a stored or repeated id throws ``RowExists`` (the caller's savepoint undoes
    /// the blocks before). Properties without a column get one before their block is written.
    private func insertInBlocks(
        _ items: [JSONObject], canonicalJSON: [[UInt8]]?, queued: [Int64]?, table: inout SQLiteTableState
    ) throws -> Int {
        var written = 0
        while table.blockRows > 1, items.count - written >= table.blockRows {
            let block = written..<(written + table.blockRows)
            let missing = try insertBlock(items[block], canonicalJSON: canonicalJSON, queued: queued, table: table)
            if missing.isEmpty {
                written = block.upperBound
            } else {
                // Add the columns, then write the same block with the wider statement.
                try catalog.addColumns(missing.sorted(), to: table.key, in: database)
                table = try catalog.table(named: table.definition.name)
            }
        }
        return written
    }

    /// Writes one block of new rows with ``SQLiteTableState/blockInsertSQL``, or, writing nothing, returns
    /// the properties that have no column yet.
    private func insertBlock(
        _ block: ArraySlice<JSONObject>, canonicalJSON: [[UInt8]]?, queued: [Int64]?, table: SQLiteTableState
    ) throws -> Set<String> {
        let statement = try database.cachedStatement(table.blockInsertSQL)
        defer { statement.reset() }
        statement.reset()
        statement.clearBindings()
        var missing: Set<String> = []
        for (row, index) in block.indices.enumerated() {
            let item = block[index]
            let base = Int32(row) * table.blockWidth
            try statement.bind(try ItemKey.id(of: item, table: table.definition.name), at: base + 1)
            try statement.bind(utf8: canonicalJSON?[index] ?? SQLiteRowCoding.storedJSON(item), at: base + 2)
            var kinds = SQLiteRowCoding.KindsBuilder()
            for (property, value) in item.properties where property != "id" {
                guard let column = table.column(for: property) else {
                    missing.insert(property)
                    continue
                }
                let projected = Projection.project(value, isDate: column.isDate).sqliteValue
                try statement.bind(projected, at: base + column.parameter)
                kinds.add(value, column: column.number)
            }
            try statement.bind(kinds.sqliteValue, at: base + 3)
            if let queued { try statement.bind(queued[index], at: base + 4) }
        }
        guard missing.isEmpty else { return missing }
        do {
            try statement.run()
        } catch {
            throw error.isConstraintViolation ? RowExists() : error
        }
        return []
    }

    private enum Binding {
        case bound
        case missing([String])
    }

    /// Binds one item to the upsert statements, or reports the properties that have no column yet.
    /// `touched` tells which extra `UPDATE` statements received a value.
    private func bind(
        _ item: JSONObject, id: String, json: [UInt8], queued: SQLiteValue, to statements: [Statement],
        touched: inout [Bool], table: SQLiteTableState
    ) throws -> Binding {
        for index in statements.indices {
            statements[index].reset()
            statements[index].clearBindings()
            touched[index] = false
        }
        let insert = statements[0]
        try insert.bind(id, at: 1)
        try insert.bind(utf8: json, at: 2)
        var missing: [String] = []
        var kinds = SQLiteRowCoding.KindsBuilder()
        for (property, value) in item.properties where property != "id" {
            guard let column = table.column(for: property) else {
                missing.append(property)
                continue
            }
            if missing.isEmpty {
                let projected = Projection.project(value, isDate: column.isDate).sqliteValue
                try statements[column.statement].bind(projected, at: column.parameter)
                touched[column.statement] = true
                kinds.add(value, column: column.number)
            }
        }
        guard missing.isEmpty else { return .missing(missing) }
        try insert.bind(kinds.sqliteValue, at: 3)
        // The row-replacing statement has no `_queued` (?4); without projected columns it has no ?5 either,
        // so SQLite knows no parameter 4 in it.
        if insert.parameterCount >= 4 { try insert.bind(queued, at: 4) }
        return .bound
    }

    private func upsertStatements(_ table: SQLiteTableState) throws -> [Statement] {
        try table.upsertSQL.map { try database.cachedStatement($0) }
    }

    func delete(table name: String, ids: [String]) throws -> Int {
        try atomically {
            let table = try catalog.table(named: name)
            let statement = try database.cachedStatement("DELETE FROM \(table.quotedName) WHERE id = ?")
            defer { statement.reset() }
            var deleted = 0
            for id in ids {
                // A row with a queued operation hands its pointer to the side table first.
                try SQLiteQueuePointers.keepPointers(
                    ofRows: "SELECT \(SQLiteQueuePointers.column) FROM \(table.quotedName) WHERE id = ?",
                    bindings: [.text(id)], in: database)
                statement.reset()
                try statement.bind(id, at: 1)
                try statement.run()
                deleted += database.changes
            }
            return deleted
        }
    }

    func delete(_ query: StoreQuery) throws -> Int {
        try atomically { try deleteInTransaction(query) }
    }

    private func deleteInTransaction(_ query: StoreQuery) throws -> Int {
        let table = try catalog.table(named: query.table)
        let paged = query.limit != nil || query.offset > 0
        let select = try selectStatement(columns: "id", table: table, query: query, ordered: paged)
        let sql: String
        let queuedSQL: String
        let queuedColumn = SQLiteQueuePointers.column
        if paged {
            sql = "DELETE FROM \(table.quotedName) WHERE id IN (\(select.sql))"
            queuedSQL = "SELECT \(queuedColumn) FROM \(table.quotedName) WHERE id IN (\(select.sql))"
        } else {
            // "SELECT id FROM t WHERE c" becomes "DELETE FROM t WHERE c".
            let rest = select.sql.dropFirst("SELECT id FROM ".count)
            sql = "DELETE FROM " + rest
            queuedSQL = "SELECT \(queuedColumn) FROM " + rest
        }
        return try SQLiteValueSets.with(select.valueSets, in: database) {
            // Rows with a queued operation hand their pointers to the side table first.
            try SQLiteQueuePointers.keepPointers(ofRows: queuedSQL, bindings: select.bindings, in: database)
            try database.run(sql, select.bindings)
            return database.changes
        }
    }

    // MARK: SQL

    private struct Select {
        var sql: String
        var bindings: [SQLiteValue]
        var valueSets: [[SQLiteValue]]
    }

    /// The statement reading whole rows (``SQLiteTableState/storedColumns``) for a query.
    ///
    /// A page ordered by properties sorts only the keys and rowids, then reads the rows it keeps: SQLite's
    /// sorter otherwise copies every matching row whole, which made a 1,000-row page of 100,000 rows take half
    /// again as long (see BENCHMARKS.md, reads next to GRDB). Without a limit every row is kept anyway, and an
    /// order by `id` alone walks the key's index without sorting.
    private func rowSelectStatement(table: SQLiteTableState, query: StoreQuery) throws -> Select {
        let sortsByProperties = query.ordering.contains { $0.property != "id" && table.column(for: $0.property) != nil }
        guard sortsByProperties, query.limit != nil || query.offset > 0 else {
            return try selectStatement(columns: table.storedColumns, table: table, query: query, ordered: true)
        }
        var page = try selectStatement(columns: "rowid AS _rowid", table: table, query: query, ordered: true)
        page.sql =
            "SELECT \(table.rowStoredColumns) FROM (\(page.sql)) AS _page JOIN \(table.quotedName) AS _row "
            + "ON _row.rowid = _page._rowid ORDER BY " + orderingKeys(table: table, query: query, alias: "_row.")
        return page
    }

    /// The `ORDER BY` keys of a query: its orderings on known columns, then `id` (unique, so the order is total).
    private func orderingKeys(table: SQLiteTableState, query: StoreQuery, alias: String = "") -> String {
        var keys: [String] = []
        for descriptor in query.ordering {
            let column: String
            if descriptor.property == "id" {
                column = "id"
            } else if let projected = table.column(for: descriptor.property) {
                column = "\"\(projected.name)\""
            } else {
                continue  // every row reads NULL: no effect on the order
            }
            keys.append("\(alias)\(column) \(descriptor.ascending ? "ASC" : "DESC")")
        }
        keys.append("\(alias)id ASC")
        return keys.joined(separator: ", ")
    }

    private func selectStatement(columns: String, table: SQLiteTableState, query: StoreQuery, ordered: Bool)
        throws -> Select
    {
        var sql = "SELECT \(columns) FROM \(table.quotedName)"
        var compiled = SQLiteFilterCompiler.Output()
        if let filter = query.filter {
            let prepared = try FilterPreparation.prepareForStore(
                filter, dateProperties: table.definition.dateProperties)
            compiled = SQLiteFilterCompiler.compile(prepared, table: table)
            sql += " WHERE \(compiled.sql)"
        }
        if ordered {
            sql += " ORDER BY " + orderingKeys(table: table, query: query)
        }
        if ordered && (query.limit != nil || query.offset > 0) {
            compiled.bindings.append(.integer(Int64(query.limit.map { max(0, $0) } ?? -1)))
            compiled.bindings.append(.integer(Int64(max(0, query.offset))))
            sql += " LIMIT ?\(compiled.bindings.count - 1) OFFSET ?\(compiled.bindings.count)"
        }
        guard compiled.bindings.count <= Self.parameterLimit else {
            throw StoreError.invalidQuery(
                message: "the query needs \(compiled.bindings.count) parameters; SQLite allows \(Self.parameterLimit)")
        }
        return Select(sql: sql, bindings: compiled.bindings, valueSets: compiled.valueSets)
    }

    /// The item in the current row of `statement`, which selects ``SQLiteTableState/storedColumns``.
    private func decode(_ statement: Statement, table: SQLiteTableState) throws -> JSONObject {
        let id = statement.text(at: 0) ?? ""
        do {
            return try statement.withUTF8Bytes(at: 1) { json in
                try SQLiteRowCoding.object(
                    id: id, json: json, kinds: statement.text(at: 2), columns: table.rowColumns,
                    value: { statement.value(at: SQLiteTableState.firstRowColumn + Int32($0)) })
            }
        } catch {
            throw StoreError.invalidStoredData(table: table.definition.name, id: id, message: "\(error)")
        }
    }
}
