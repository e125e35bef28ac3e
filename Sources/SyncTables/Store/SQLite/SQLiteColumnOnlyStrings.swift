import SyncTablesSQLite

/// Strings of ``minimumBytes`` or more are stored once, in their projected column, instead of twice (in
/// `_json` and the column).
///
/// Every top-level property is projected into a column of its own for filtering, so a row used to hold each
/// string twice; for items with notes or descriptions that doubled what every write put in the log. A
/// top-level string of at least ``minimumBytes`` UTF-8 bytes that is not an ISO-8601 date-time is now left
/// out of the row's `_json`, and the row's `_column_only` column lists the numbers of the columns that hold
/// such values (`"1,5"`); `NULL` when none does. Reading a row puts the values back, so every read returns
/// the same object as before.
///
/// The rule looks at the value alone, so whoever serializes a row (the store, or a task encoding a large
/// batch ahead of it) leaves out the same properties. It is lossless whatever the column: a string that is
/// not a date-time is projected as itself even into a date property's column, and never turns into an
/// instant when a property becomes a date later.
enum SQLiteColumnOnlyStrings {
    /// A row's column-only list that does not name text columns of the row (a file edited by hand).
    struct Unreadable: Error, CustomStringConvertible {
        let list: String
        var description: String { "the column-only list '\(list)' does not name text columns of the row" }
    }

    /// Strings shorter than this stay in `_json`: a listed column costs two or three bytes of `_column_only`
    /// and a merge on every read, which a short word does not repay. Reads of a table of up to
    /// ``SQLiteTableState/inlineColumnLimit`` columns select the columns with the row, so the merge is
    /// cheap: 16 (rather than 64 before) also takes titles and names out of `_json` — for the benchmark
    /// item, 47 more bytes per row, and batched inserts about 5 % faster with reads no slower (BENCHMARKS.md).
    static let minimumBytes = 16

    /// The column that lists a row's column-only values.
    static let listColumn = "_column_only"

    /// Whether `value` (a top-level property's) is kept in its column only.
    static func isColumnOnly(_ value: JSONValue) -> Bool {
        guard case .string(let text) = value, text.utf8.count >= minimumBytes else { return false }
        return !mayBeDateTime(text) || StoreCoding.ticks(iso8601: text) == nil
    }

    /// Whether `text` starts like an ISO-8601 date-time (`dddd-dd-ddT`): a cheap test first, because the
    /// parser builds an error for every string it refuses.
    private static func mayBeDateTime(_ text: String) -> Bool {
        var utf8 = text.utf8.makeIterator()
        for position in 0..<11 {
            guard let byte = utf8.next() else { return false }
            switch position {
            case 4, 7: guard byte == UInt8(ascii: "-") else { return false }
            case 10: guard byte == UInt8(ascii: "T") || byte == UInt8(ascii: "t") else { return false }
            default: guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return false }
            }
        }
        return true
    }

    /// The text a row stores in `_json`: its canonical JSON without the column-only values.
    static func storedJSON(_ row: JSONObject) -> [UInt8] {
        row.jsonBytes { property, value in property != "id" && isColumnOnly(value) }
    }

    /// Builds a row's `_column_only` text while its values are bound, without an allocation for the few
    /// columns a row usually lists (a short `String` is stored inline).
    struct ListBuilder {
        private(set) var text = ""

        /// Adds the column when `value` is kept in it only.
        mutating func add(_ value: JSONValue, column: Int) {
            guard isColumnOnly(value) else { return }
            if !text.isEmpty { text.append(",") }
            text.append(String(column))
        }

        /// The list's value for the `_column_only` column: `NULL` when empty.
        var sqliteValue: SQLiteValue { text.isEmpty ? .null : .text(text) }
    }

    /// The column numbers a `_column_only` text lists.
    private static func numbers(in list: String) -> [Int]? {
        var numbers: [Int] = []
        for part in list.split(separator: ",", omittingEmptySubsequences: false) {
            guard let number = Int(part), number > 0 else { return nil }
            numbers.append(number)
        }
        return numbers.isEmpty ? nil : numbers
    }

    /// The statement reading a row's column-only values by rowid, in the order of `numbers`.
    private static func valuesSQL(table quotedName: String, numbers: [Int]) -> String {
        "SELECT " + numbers.map { "\"c\($0)\"" }.joined(separator: ", ") + " FROM \(quotedName) WHERE rowid = ?"
    }

    /// Reads the column-only values of the row `rowid` through `statement` (built by ``valuesSQL(table:numbers:)``
    /// for as many columns as `properties`), as `(property, value)` pairs; `nil` when a column is not text.
    ///
    /// Run it while the statement that found the row is still stepping, so both see the same snapshot.
    private static func values(of rowid: Int64, properties: [String], through statement: Statement) throws
        -> [(String, String)]?
    {
        defer { statement.reset() }
        statement.reset()
        try statement.bind(rowid, at: 1)
        guard try statement.step() else { return nil }
        var values: [(String, String)] = []
        values.reserveCapacity(properties.count)
        for (index, property) in properties.enumerated() {
            guard case .text(let text) = statement.value(at: Int32(index)) else { return nil }
            values.append((property, text))
        }
        return values
    }

    /// What reading a row's column-only values needs to know of its table (``SQLiteTableState``, and the
    /// lookup connection's copy of it).
    protocol TableColumns {
        /// ``SQLiteTableState/quotedName``.
        var quotedName: String { get }
        /// ``SQLiteTableState/propertiesByNumber``.
        var propertiesByNumber: [Int: String] { get }
        /// ``SQLiteTableState/storedColumnIndexes``.
        var storedColumnIndexes: [Int: Int32] { get }
    }

    /// The values `list` names for the current row of `statement` (which selects
    /// ``SQLiteTableState/storedColumns`` of `table`), as `(property, value)` pairs: from the row's own
    /// columns when the statement selected them, else by rowid through `database`. `nil` when the list is
    /// not a list of the table's text columns.
    ///
    /// Run it while `statement` still steps, so both reads see the same snapshot.
    static func values(
        listed list: String, in statement: Statement, table: some TableColumns, database: Database
    ) throws -> [(String, String)]? {
        guard let numbers = numbers(in: list) else { return nil }
        var properties: [String] = []
        properties.reserveCapacity(numbers.count)
        for number in numbers {
            guard let property = table.propertiesByNumber[number] else { return nil }
            properties.append(property)
        }
        if let inline = values(of: statement, numbers: numbers, properties: properties, at: table.storedColumnIndexes) {
            return inline
        }
        let byRowid = try database.cachedStatement(valuesSQL(table: table.quotedName, numbers: numbers))
        return try values(of: statement.integer(at: 2), properties: properties, through: byRowid)
    }

    /// The column-only values from the row's own statement, which holds column `number` at `indexes[number]`;
    /// `nil` when one was not selected or is not text (then the rowid read answers, or reports it).
    private static func values(
        of statement: Statement, numbers: [Int], properties: [String], at indexes: [Int: Int32]
    ) -> [(String, String)]? {
        var values: [(String, String)] = []
        values.reserveCapacity(properties.count)
        for (number, property) in zip(numbers, properties) {
            guard let index = indexes[number], case .text(let text) = statement.value(at: index) else { return nil }
            values.append((property, text))
        }
        return values
    }

    /// The stored row: the parsed `_json` with the column-only values put back.
    static func merge(_ json: UnsafeBufferPointer<UInt8>, values: [(String, String)]) throws -> JSONObject {
        var object = try StoreCoding.object(utf8: json)
        for (property, text) in values {
            object[property] = .string(text)
        }
        return object
    }
}
