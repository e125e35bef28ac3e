@_spi(SyncTablesTools) import SyncTablesCore

/// What `SQLiteStore` knows about one user table: its definition, its SQL name and the generated projected
/// column of each property.
struct SQLiteTableState: Sendable {
    /// One projected column.
    struct Column: Sendable {
        /// The generated SQL name (`c1`, `c2`, …), safe to splice into SQL.
        let name: String
        /// The number in the name, which a row's kinds list (see ``SQLiteRowCoding``) refers to.
        let number: Int
        /// Which upsert statement binds this column: 0 is the `INSERT OR REPLACE`, 1… the `UPDATE`s that
        /// carry columns beyond SQLite 3.15's 999 parameters per statement.
        let statement: Int
        /// The parameter index of this column in that statement.
        let parameter: Int32
        /// The column's position in creation order.
        let ordinal: Int
        /// `true` when the property is a date property (its ISO-8601 strings are stored as ticks).
        var isDate: Bool
    }

    /// The definition as merged over every `defineTable` call.
    var definition: TableDefinition {
        didSet {
            let dates = definition.dateProperties
            for property in Array(columns.keys) {
                columns[property]?.isDate = FilterPreparation.isDateProperty(property, dates)
            }
            upsertSQL = makeUpsertSQL()
            makeBlockInsertSQL()
        }
    }
    /// The case-insensitive key (see ``TableName``).
    let key: String
    /// Projected columns by property name, in creation order through `parameter`.
    private(set) var columns: [String: Column] = [:]
    /// The property of each column, by column number.
    private(set) var propertiesByNumber: [Int: String] = [:]
    /// The highest column number used so far.
    private(set) var lastColumnNumber = 0

    init(definition: TableDefinition, key: String) {
        self.definition = definition
        self.key = key
        self.upsertSQL = makeUpsertSQL()
        makeReadSQL()
        makeBlockInsertSQL()
    }

    /// The statement reading one row's ``storedColumns`` by id, built when the columns change, not per
    /// lookup: it is the most frequent statement.
    private(set) var lookupSQL = ""

    /// What every read of whole rows selects: the id, `_json`, `_kinds` (see ``SQLiteRowCoding``), then every
    /// projected column in creation order (``rowColumns``).
    private(set) var storedColumns = ""

    /// ``storedColumns`` qualified with the alias `_row`, for reads that join the table to a subquery.
    private(set) var rowStoredColumns = ""

    /// The projected columns ``storedColumns`` selects, from its fourth on.
    private(set) var rowColumns = SQLiteRowCoding.Columns(properties: [], numbers: [], highest: 0)

    /// Where ``storedColumns`` puts the first projected column.
    static let firstRowColumn: Int32 = 3

    private mutating func makeReadSQL() {
        let ordered = orderedColumns
        let names = ["id", "_json", SQLiteRowCoding.kindsColumn] + ordered.map { "\"\($0.name)\"" }
        storedColumns = names.joined(separator: ", ")
        rowStoredColumns = names.map { "_row.\($0)" }.joined(separator: ", ")
        rowColumns = SQLiteRowCoding.Columns(
            properties: ordered.map { propertiesByNumber[$0.number] ?? "" }, numbers: ordered.map(\.number),
            highest: lastColumnNumber)
        // SQL identifiers ignore case, so a later definition's spelling of the name never changes this.
        lookupSQL = "SELECT \(storedColumns) FROM \"\(definition.name)\" WHERE id = ?"
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

    /// SQLite 3.15's limit of parameters in one statement.
    static let parameterLimit = 999
    /// Projected columns the `INSERT` statement carries (besides ``insertedColumns``).
    static let insertColumns = parameterLimit - 4
    /// Projected columns each extra `UPDATE` statement carries (besides `id`).
    static let updateColumns = parameterLimit - 1

    /// Records a column loaded from the catalog or just added.
    mutating func addColumn(property: String, number: Int) {
        lastColumnNumber = max(lastColumnNumber, number)
        let ordinal = columns.count
        let statement: Int
        let parameter: Int
        if ordinal < Self.insertColumns {
            (statement, parameter) = (0, ordinal + 5)
        } else {
            let overflow = ordinal - Self.insertColumns
            (statement, parameter) = (overflow / Self.updateColumns + 1, overflow % Self.updateColumns + 2)
        }
        columns[property] = Column(
            name: "c\(number)", number: number, statement: statement, parameter: Int32(parameter), ordinal: ordinal,
            isDate: isDate(property))
        propertiesByNumber[number] = property
        upsertSQL = makeUpsertSQL()
        makeBlockInsertSQL()
        makeReadSQL()
    }

    /// Columns in creation order.
    var orderedColumns: [Column] {
        columns.values.sorted { $0.ordinal < $1.ordinal }
    }

    /// The statements that write one item, in order: an `INSERT` over ``insertedColumns`` (parameters 1–4)
    /// and the first projected columns, then for very wide tables one `UPDATE … WHERE id = ?1` per further
    /// group of columns.
    ///
    /// When the row exists the `INSERT` fails on the primary key and ``replaceSQL`` runs in its place with
    /// the same parameters. Not `INSERT OR REPLACE`: under SQLCipher a replacing insert cost four to five
    /// times a plain one even when no row existed (measured with the `sqlcipher` tool: 20,000 rows in
    /// 0.9 s against 0.21 s).
    ///
    /// Built when the columns or the definition change, not per write: every upsert needs it, and building
    /// it (sorting the columns, joining their names) cost more than binding a small row.
    private(set) var upsertSQL: [String] = []

    /// Rewrites an existing row with the parameters of the first ``upsertSQL`` statement: every column of
    /// that group is set, so properties the item no longer has become NULL, as in a replaced row. The row's
    /// `_queued` stays: the item's queued operation does not change with its data.
    var replaceSQL: String {
        let assignments = orderedColumns.prefix(Self.insertColumns).map { "\"\($0.name)\" = ?\($0.parameter)" }
        let stored = ["_json = ?2", "\(SQLiteRowCoding.kindsColumn) = ?3"]
        return "UPDATE \(quotedName) SET " + (stored + assignments).joined(separator: ", ") + " WHERE id = ?1"
    }

    /// The most rows one multi-row `INSERT` carries: more rows per statement stop paying off well before
    /// SQLite's parameter limit does.
    static let maximumBlockRows = 64

    /// Rows per ``blockInsertSQL`` statement (each row binds ``insertedColumns`` and every projected
    /// column);
    /// 0 when the table is too wide for more than one row per statement.
    private(set) var blockRows = 0

    /// One `INSERT` of ``blockRows`` new rows, for batches of new items: stepping one statement per row
    /// cost more than binding the row (measured with raw SQL: 64 rows per statement wrote the same rows
    /// about a third faster). Row `r`'s parameters start at `r * blockWidth`, in the order of the first
    /// ``upsertSQL`` statement. Empty when ``blockRows`` is 0.
    private(set) var blockInsertSQL = ""

    /// The parameters of one row in ``blockInsertSQL``.
    var blockWidth: Int32 { Int32(4 + min(columns.count, Self.insertColumns)) }

    /// The columns every inserted row starts with, before its projected columns: the id, the JSON, the
    /// kinds list (``SQLiteRowCoding``) and the queued sequence (``SQLiteQueuePointers``).
    static let insertedColumns = "id, _json, \(SQLiteRowCoding.kindsColumn), \(SQLiteQueuePointers.column)"

    private mutating func makeBlockInsertSQL() {
        let width = Int(blockWidth)
        let rows = columns.count <= Self.insertColumns ? min(Self.maximumBlockRows, Self.parameterLimit / width) : 0
        guard rows > 1 else {
            (blockRows, blockInsertSQL) = (0, "")
            return
        }
        let names = orderedColumns.map { ", \"\($0.name)\"" }.joined()
        let row = "(" + Array(repeating: "?", count: width).joined(separator: ", ") + ")"
        blockRows = rows
        blockInsertSQL =
            "INSERT INTO \(quotedName) (\(Self.insertedColumns)\(names)) VALUES "
            + Array(repeating: row, count: rows).joined(separator: ", ")
    }

    private func makeUpsertSQL() -> [String] {
        let ordered = orderedColumns
        var groups: [[Column]] = [Array(ordered.prefix(Self.insertColumns))]
        var rest = ordered.dropFirst(Self.insertColumns)
        while !rest.isEmpty {
            groups.append(Array(rest.prefix(Self.updateColumns)))
            rest = rest.dropFirst(Self.updateColumns)
        }
        let insertNames = groups[0].map { ", \"\($0.name)\"" }.joined()
        let insertParameters = String(repeating: ", ?", count: groups[0].count)
        var statements = [
            "INSERT INTO \(quotedName) (\(Self.insertedColumns)\(insertNames)) VALUES (?, ?, ?, ?\(insertParameters))"
        ]
        for group in groups.dropFirst() {
            let assignments = group.map { "\"\($0.name)\" = ?\($0.parameter)" }.joined(separator: ", ")
            statements.append("UPDATE \(quotedName) SET \(assignments) WHERE id = ?1")
        }
        return statements
    }
}
