@_spi(SyncTablesTools) import SyncTablesCore

/// The whole content of a ``MemoryStore``. A transaction changes it in place and keeps a ``MemoryJournal``
/// to undo its changes when its body throws.
struct MemoryTables: Sendable {
    /// One table: its definition and its rows by id.
    struct Table: Sendable {
        var definition: TableDefinition
        var rows: [RowID: JSONObject] = [:]
        /// Every top-level property a row has ever had.
        var propertyNames: Set<String> = []
    }

    /// Tables by their case-insensitive key (see ``TableName``).
    private var tables: [String: Table] = [:]
    /// The open transaction's changes; `nil` outside a transaction.
    private var journal: MemoryJournal?

    var definitions: [TableDefinition] {
        tables.keys.sorted().compactMap { tables[$0]?.definition }
    }

    mutating func define(_ definition: TableDefinition) throws(StoreError) {
        let key = try TableName.key(definition.name)
        noteTable(key)
        guard var table = tables[key] else {
            tables[key] = Table(definition: definition)
            return
        }
        table.definition.dateProperties.formUnion(definition.dateProperties)
        for index in definition.indexes where !table.definition.indexes.contains(index) {
            table.definition.indexes.append(index)
        }
        tables[key] = table
    }

    func read(_ query: StoreQuery) throws(StoreError) -> [JSONObject] {
        try selection(query).map(\.item)
    }

    func count(_ query: StoreQuery) throws(StoreError) -> Int {
        if query.ordering.isEmpty, query.limit == nil, query.offset <= 0 {
            let table = try table(query.table)
            guard let filter = try prepared(query.filter, table) else { return table.rows.count }
            let evaluator = FilterEvaluator(dateProperties: table.definition.dateProperties)
            return table.rows.values.reduce(0) { $0 + (evaluator.matches(filter, item: $1) ? 1 : 0) }
        }
        return try selection(query).count
    }

    func lookup(table name: String, id: String) throws(StoreError) -> JSONObject? {
        try table(name).rows[RowID(id)]
    }

    mutating func upsert(table name: String, items: [JSONObject]) throws(StoreError) {
        let key = try TableName.key(name)
        guard var table = tables[key] else { throw StoreError.unknownTable(name) }
        // Check every id first so a bad item leaves the table untouched.
        var keyed: [(RowID, JSONObject)] = []
        keyed.reserveCapacity(items.count)
        for item in items { keyed.append((RowID(try ItemKey.id(of: item, table: name)), item)) }
        noteTable(key)
        tables[key] = nil  // keep the rows uniquely referenced while they change
        for (id, item) in keyed {
            noteRow(id, before: table.rows[id], in: key)
            table.rows[id] = item
            table.propertyNames.formUnion(item.properties.keys)
        }
        tables[key] = table
    }

    /// Every top-level property the rows of a table have ever had; empty for an unknown table.
    func propertyNames(table name: String) -> Set<String> {
        guard let key = try? TableName.key(name) else { return [] }
        return tables[key]?.propertyNames ?? []
    }

    mutating func delete(table name: String, ids: [String]) throws(StoreError) -> Int {
        let key = try TableName.key(name)
        guard var table = tables[key] else { throw StoreError.unknownTable(name) }
        noteTable(key)
        tables[key] = nil
        var deleted = 0
        for id in ids.map(RowID.init) {
            guard let removed = table.rows.removeValue(forKey: id) else { continue }
            noteRow(id, before: removed, in: key)
            deleted += 1
        }
        tables[key] = table
        return deleted
    }

    mutating func delete(_ query: StoreQuery) throws(StoreError) -> Int {
        let ids = try selection(query).map(\.id)
        return try delete(table: query.table, ids: ids)
    }

    // MARK: Transactions

    /// Starts recording changes so ``rollBack()`` can undo them.
    mutating func beginTransaction() {
        journal = MemoryJournal()
    }

    /// Keeps the changes made since ``beginTransaction()``.
    mutating func commit() {
        journal = nil
    }

    /// Undoes the changes made since ``beginTransaction()``.
    mutating func rollBack() {
        guard let journal else { return }
        self.journal = nil
        for (key, before) in journal.tables {
            guard let definition = before.definition else {
                tables[key] = nil
                continue
            }
            guard var table = tables.removeValue(forKey: key) else { continue }
            table.definition = definition
            table.propertyNames = before.propertyNames
            for (id, row) in before.rows { table.rows[id] = row }
            tables[key] = table
        }
    }

    private mutating func noteTable(_ key: String) {
        guard journal != nil, journal?.tables[key] == nil else { return }
        let table = tables[key]
        journal?.tables[key] = MemoryJournal.TableBefore(
            definition: table?.definition, propertyNames: table?.propertyNames ?? []
        )
    }

    /// Records a row's value before its first change in the transaction.
    private mutating func noteRow(_ id: RowID, before row: JSONObject?, in key: String) {
        guard journal?.tables[key]?.rows.index(forKey: id) == nil else { return }
        journal?.tables[key]?.rows.updateValue(row, forKey: id)
    }

    // MARK: Selection

    /// The rows a query selects, in order, with offset and limit applied.
    private func selection(_ query: StoreQuery) throws(StoreError) -> [(id: String, item: JSONObject)] {
        let table = try table(query.table)
        let dates = table.definition.dateProperties
        let filter = try prepared(query.filter, table)
        let evaluator = FilterEvaluator(dateProperties: dates)
        let ordering = RowOrdering(ordering: query.ordering, dateProperties: dates)
        var rows: [ProjectedRow] = []
        for (id, item) in table.rows where filter.map({ evaluator.matches($0, item: item) }) ?? true {
            rows.append((ordering.keys(of: item), id.id, item))
        }
        let precedes = { (a: ProjectedRow, b: ProjectedRow) in ordering.precedes((a.keys, a.id), (b.keys, b.id)) }
        let start = min(max(0, query.offset), rows.count)
        let end = query.limit.map { min(rows.count, start + max(0, $0)) } ?? rows.count
        if start == 0, end == 1 {
            // The queue's "highest sequence" asks for one row per write: a full sort made 8,000 writes take minutes.
            return rows.min(by: precedes).map { [($0.id, $0.item)] } ?? []
        }
        rows.sort(by: precedes)
        return rows[start..<end].map { ($0.id, $0.item) }
    }

    private typealias ProjectedRow = (keys: [ProjectedValue], id: String, item: JSONObject)

    private func table(_ name: String) throws(StoreError) -> Table {
        guard let table = tables[try TableName.key(name)] else { throw StoreError.unknownTable(name) }
        return table
    }

    private func prepared(_ filter: FilterExpression?, _ table: Table) throws(StoreError) -> FilterExpression? {
        guard let filter else { return nil }
        return try FilterPreparation.prepareForStore(filter, dateProperties: table.definition.dateProperties)
    }
}
