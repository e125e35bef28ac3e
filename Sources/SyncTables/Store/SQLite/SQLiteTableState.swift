/// What `SQLiteStore` knows about one user table: its definition, its SQL name and the generated projected
/// column of each property.
struct SQLiteTableState: Sendable {
    /// One projected column.
    struct Column: Sendable {
        /// The generated SQL name (`c1`, `c2`, …), safe to splice into SQL.
        let name: String
        /// The parameter index of this column in the table's upsert statement.
        let parameter: Int32
    }

    /// The definition as merged over every `defineTable` call.
    var definition: TableDefinition
    /// The case-insensitive key (see ``TableName``).
    let key: String
    /// Projected columns by property name, in creation order through `parameter`.
    private(set) var columns: [String: Column] = [:]
    /// The highest column number used so far.
    private(set) var lastColumnNumber = 0

    init(definition: TableDefinition, key: String) {
        self.definition = definition
        self.key = key
    }

    /// The quoted SQL identifier of the table (validated, so quoting is belt and braces).
    var quotedName: String { "\"\(definition.name)\"" }

    /// The projected column of a property, if any row ever had it.
    func column(for property: String) -> Column? {
        columns[property]
    }

    /// `true` when the property's strings are projected as instants.
    func isDate(_ property: String) -> Bool {
        FilterPreparation.isDateProperty(property, definition.dateProperties)
    }

    /// Records a column loaded from the catalog or just added.
    mutating func addColumn(property: String, number: Int) {
        lastColumnNumber = max(lastColumnNumber, number)
        columns[property] = Column(name: "c\(number)", parameter: Int32(columns.count + 3))
    }

    /// Columns in parameter order.
    var orderedColumns: [Column] {
        columns.values.sorted { $0.parameter < $1.parameter }
    }

    /// `INSERT OR REPLACE` over `id`, `_json` and every projected column: one row replaces the whole
    /// stored row, and properties an item lacks become NULL.
    var upsertSQL: String {
        let names = orderedColumns.map { ", \"\($0.name)\"" }.joined()
        let parameters = String(repeating: ", ?", count: columns.count)
        return "INSERT OR REPLACE INTO \(quotedName) (id, _json\(names)) VALUES (?, ?\(parameters))"
    }
}
