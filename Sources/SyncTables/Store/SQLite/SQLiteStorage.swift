import SyncTablesSQLite

/// The synchronous heart of ``SQLiteStore``: one connection, the catalog, and every table operation.
///
/// Owned by the store actor and only ever used on its executor thread, so it needs no locking.
final class SQLiteStorage {
    /// SQLite 3.15's default limit of bound parameters per statement.
    static let parameterLimit = 999

    let database: Database
    private(set) var catalog: SQLiteCatalog

    /// Registers the filter functions and opens (creating or migrating) the catalog.
    init(database: Database) throws {
        self.database = database
        try SQLiteFilterFunctions.register(on: database)
        self.catalog = try SQLiteCatalog.open(database)
    }

    // MARK: Transactions

    /// Runs `body` atomically: in a transaction (a savepoint when one is already open), restoring the
    /// in-memory catalog if it rolls back.
    func atomically<Result>(_ body: () throws -> Result) throws -> Result {
        let saved = catalog
        do {
            return try database.transaction(.immediate, body)
        } catch {
            catalog = saved
            throw error
        }
    }

    // MARK: Tables

    func defineTable(_ definition: TableDefinition) throws {
        try atomically { try catalog.define(definition, in: database) }
    }

    var tableDefinitions: [TableDefinition] {
        catalog.tables.keys.sorted().compactMap { catalog.tables[$0]?.definition }
    }

    // MARK: Reads

    func read(_ query: StoreQuery) throws -> [JSONObject] {
        let table = try catalog.table(named: query.table)
        let select = try selectStatement(columns: "_json", table: table, query: query, ordered: true)
        return try SQLiteValueSets.with(select.valueSets, in: database) {
            let statement = try database.cachedStatement(select.sql)
            defer { statement.reset() }
            try statement.bind(select.bindings)
            var items: [JSONObject] = []
            while try statement.step() {
                items.append(try decode(statement, table: table, id: nil))
            }
            return items
        }
    }

    func count(_ query: StoreQuery) throws -> Int {
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
        let table = try catalog.table(named: name)
        let statement = try database.cachedStatement("SELECT _json FROM \(table.quotedName) WHERE id = ?")
        defer { statement.reset() }
        try statement.bind(id, at: 1)
        guard try statement.step() else { return nil }
        return try decode(statement, table: table, id: id)
    }

    // MARK: Writes

    func upsert(table name: String, items: [JSONObject]) throws {
        var table = try catalog.table(named: name)
        // Every id is checked before anything is written, so a bad item leaves the table untouched.
        var ids: [String] = []
        ids.reserveCapacity(items.count)
        var newProperties: [String] = []
        var seen = Set<String>()
        for item in items {
            ids.append(try ItemKey.id(of: item, table: name))
            for property in item.properties.keys
            where property != "id" && table.column(for: property) == nil && seen.insert(property).inserted {
                newProperties.append(property)
            }
        }
        guard !items.isEmpty else { return }
        try atomically {
            if !newProperties.isEmpty {
                try catalog.addColumns(newProperties, to: table.key, in: database)
                table = try catalog.table(named: name)
            }
            guard table.orderedColumns.count + 2 <= Self.parameterLimit else {
                throw StoreError.invalidQuery(
                    message: "table \(name) has \(table.orderedColumns.count) properties; at most "
                        + "\(Self.parameterLimit - 2) are supported")
            }
            let statement = try database.cachedStatement(table.upsertSQL)
            defer { statement.reset() }
            for (item, id) in zip(items, ids) {
                statement.reset()
                statement.clearBindings()
                try statement.bind(id, at: 1)
                try statement.bind(StoreCoding.canonicalJSONText(item), at: 2)
                for (property, value) in item.properties where property != "id" {
                    guard let column = table.column(for: property) else { continue }
                    let projected = Projection.project(value, isDate: table.isDate(property))
                    try statement.bind(projected.sqliteValue, at: column.parameter)
                }
                try statement.run()
            }
        }
    }

    func delete(table name: String, ids: [String]) throws -> Int {
        let table = try catalog.table(named: name)
        return try atomically {
            let statement = try database.cachedStatement("DELETE FROM \(table.quotedName) WHERE id = ?")
            defer { statement.reset() }
            var deleted = 0
            for id in ids {
                statement.reset()
                try statement.bind(id, at: 1)
                try statement.run()
                deleted += database.changes
            }
            return deleted
        }
    }

    func delete(_ query: StoreQuery) throws -> Int {
        let table = try catalog.table(named: query.table)
        let paged = query.limit != nil || query.offset > 0
        let select = try selectStatement(columns: "id", table: table, query: query, ordered: paged)
        let sql: String
        if paged {
            sql = "DELETE FROM \(table.quotedName) WHERE id IN (\(select.sql))"
        } else {
            // "SELECT id FROM t WHERE c" becomes "DELETE FROM t WHERE c".
            sql = "DELETE FROM " + select.sql.dropFirst("SELECT id FROM ".count)
        }
        return try atomically {
            try SQLiteValueSets.with(select.valueSets, in: database) {
                try database.run(sql, select.bindings)
                return database.changes
            }
        }
    }

    // MARK: SQL

    private struct Select {
        var sql: String
        var bindings: [SQLiteValue]
        var valueSets: [[SQLiteValue]]
    }

    private func selectStatement(columns: String, table: SQLiteTableState, query: StoreQuery, ordered: Bool)
        throws -> Select
    {
        var sql = "SELECT \(columns) FROM \(table.quotedName)"
        var compiled = SQLiteFilterCompiler.Output()
        if let filter = query.filter {
            let prepared = try FilterPreparation.prepare(filter, dateProperties: table.definition.dateProperties)
            compiled = SQLiteFilterCompiler.compile(prepared, table: table)
            sql += " WHERE \(compiled.sql)"
        }
        if ordered {
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
                keys.append("\(column) \(descriptor.ascending ? "ASC" : "DESC")")
            }
            keys.append("id ASC")
            sql += " ORDER BY " + keys.joined(separator: ", ")
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

    private func decode(_ statement: Statement, table: SQLiteTableState, id: String?) throws -> JSONObject {
        do {
            return try statement.withUTF8Bytes(at: 0) { try StoreCoding.object(utf8: $0) }
        } catch {
            throw StoreError.invalidStoredData(table: table.definition.name, id: id, message: "\(error)")
        }
    }
}
