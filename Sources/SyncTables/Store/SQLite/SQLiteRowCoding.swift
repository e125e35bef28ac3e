@_spi(SyncTablesTools) import SyncTablesCore
@_spi(SyncTablesTools) import SyncTablesSQLite

/// How an item is laid out in its row: every top-level property once, in its projected column, with the
/// row's `_kinds` telling how to read back what a column's storage class alone does not say, and `_json`
/// holding only what no column gives back exactly.
///
/// A column holds ``Projection`` of the value (what filters, orderings and indexes see): integers, doubles
/// and strings as themselves, booleans as `0`/`1`, objects and arrays as canonical JSON text, `null` as
/// `NULL`, and ISO-8601 strings of a date property as 100 ns ticks. Read back, `NULL` is an absent property,
/// an integer an integer, a real a double and text a string, unless `_kinds` lists the column with a
/// ``Kind``. Keeping each value once makes a row about the size of a hand-written table's (the count of
/// 100,000 rows reads a third fewer pages than with the item's JSON beside its columns; see BENCHMARKS.md).
///
/// `_kinds` is `"<highest>"` or `"<highest>:<entries>"`: the highest column number that holds one of the
/// row's values (a reader whose catalog knows fewer columns is out of date), then one entry per listed
/// column in ascending order, its number followed by the kind's letter (`"7:2d3b"`). `NULL` when the row
/// has no property besides `id`, and in rows of catalog layout 3 and before, which kept the whole item in
/// `_json`.
///
/// `_json` is the canonical JSON of the properties the columns cannot give back — a date-time string whose
/// text is not the canonical one for its instant — and empty when there is none (nearly always). Its
/// properties take precedence over the columns, so rows of earlier layouts read correctly too.
///
/// Which properties go to `_json` depends on the value alone, so whoever serializes a row (the store, or a
/// task encoding a large batch ahead of it) leaves out the same properties.
enum SQLiteRowCoding {
    /// The column that lists a row's ``Kind``s.
    static let kindsColumn = "_kinds"

    /// How to read a column whose storage class alone does not give the value back.
    enum Kind: UInt8 {
        /// An integer that is a boolean (`0` is `false`).
        case bool = 0x62  // b
        /// A string that is the canonical ISO-8601 text of an instant: the column holds the text, or its ticks
        /// in a date property (including one that became a date property after the row was written).
        case date = 0x64  // d
        /// JSON `null` (the column reads `NULL`, or a non-finite double, which JSON writes as `null`).
        case null = 0x6E  // n
        /// An object or array, as canonical JSON text.
        case json = 0x6A  // j
    }

    /// A row's kinds list that does not fit the table (a file edited by hand, or a catalog out of date).
    struct Unreadable: Error, CustomStringConvertible {
        let kinds: String
        var description: String { "the kinds list '\(kinds)' does not fit the table's columns" }
    }

    // MARK: Writing

    /// The kind `value` (a top-level property's) is listed with, if any.
    static func kind(of value: JSONValue) -> Kind? {
        switch value {
        case .null: return .null
        case .bool: return .bool
        case .integer: return nil
        case .double(let double): return double.isFinite ? nil : .null
        case .string(let text): return isCanonicalDateTime(text) ? .date : nil
        case .array, .object: return .json
        }
    }

    /// Whether `value` (a top-level property's) is kept in `_json`: a string that reads as an ISO-8601
    /// date-time but is not its instant's canonical text (its column may hold ticks, or come to hold them
    /// when the property becomes a date property).
    static func isKeptInJSON(_ value: JSONValue) -> Bool {
        guard case .string(let text) = value, mayBeDateTime(text) else { return false }
        return StoreCoding.ticks(iso8601: text) != nil && !isCanonicalDateTime(text)
    }

    /// Whether `text` is the canonical ISO-8601 text of its instant (``Timestamp/iso8601``).
    private static func isCanonicalDateTime(_ text: String) -> Bool {
        guard mayBeDateTime(text), let ticks = StoreCoding.ticks(iso8601: text) else { return false }
        return Timestamp(ticks: ticks).iso8601 == text
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

    /// The text a row stores in `_json`: the canonical JSON of the properties kept there, empty when none
    /// is. `hasColumn` tells which properties have a column (a property without one stays in `_json`).
    static func storedJSON(_ row: JSONObject, hasColumn: (String) -> Bool = { _ in true }) -> [UInt8] {
        guard row.properties.contains(where: { $0.key != "id" && (isKeptInJSON($0.value) || !hasColumn($0.key)) })
        else { return [] }
        return row.jsonBytes { property, value in
            property == "id" || (hasColumn(property) && !isKeptInJSON(value))
        }
    }

    /// Builds a row's `_kinds` text while its values are bound.
    struct KindsBuilder {
        private var highest = 0
        private var entries: [(number: Int, kind: Kind)] = []

        /// Records that column `number` holds `value`.
        mutating func add(_ value: JSONValue, column number: Int) {
            highest = max(highest, number)
            if let kind = kind(of: value) { entries.append((number, kind)) }
        }

        /// The list's value for the `_kinds` column: `NULL` when the row has no column values.
        var sqliteValue: SQLiteValue {
            guard highest > 0 else { return .null }
            var text = String(highest)
            guard !entries.isEmpty else { return .text(text) }
            text.append(":")
            for entry in entries.sorted(by: { $0.number < $1.number }) {
                text.append(String(entry.number))
                text.unicodeScalars.append(Unicode.Scalar(entry.kind.rawValue))
            }
            return .text(text)
        }
    }

    // MARK: Reading

    /// The projected columns a read selects, in the order it selects them (``SQLiteTableState/orderedColumns``,
    /// whose numbers ascend).
    struct Columns: Sendable {
        /// The property of each selected column.
        let properties: [String]
        /// The number of each selected column.
        let numbers: [Int]
        /// The highest column number the catalog knows.
        let highest: Int
    }

    /// The stored item: the row's columns (`value(i)` is the `i`-th of `columns`) read with their kinds,
    /// then the properties of `json` over them, then the `id`.
    static func object(
        id: String, json: UnsafeBufferPointer<UInt8>, kinds: String?, columns: Columns, value: (Int) -> SQLiteValue
    ) throws -> JSONObject {
        var properties: [String: JSONValue] = [:]
        properties.reserveCapacity(columns.properties.count + 1)
        var list = KindsReader(kinds ?? "")
        if kinds != nil {
            guard let highest = list.number(), highest <= columns.highest else { throw Unreadable(kinds: kinds ?? "") }
            guard list.atEnd || list.colon() else { throw Unreadable(kinds: kinds ?? "") }
        }
        var next = try list.entry(kinds)
        for (index, number) in columns.numbers.enumerated() {
            var kind: Kind?
            if let entry = next, entry.number == number {
                kind = entry.kind
                next = try list.entry(kinds)
            }
            let property = columns.properties[index]
            switch (value(index), kind) {
            case (_, .null?): properties[property] = .null
            case (.null, nil): continue
            case (.integer(let integer), nil): properties[property] = .integer(integer)
            case (.integer(let integer), .bool?): properties[property] = .bool(integer != 0)
            case (.integer(let ticks), .date?): properties[property] = .string(Timestamp(ticks: ticks).iso8601)
            case (.real(let double), nil): properties[property] = .double(double)
            case (.text(let text), nil), (.text(let text), .date?): properties[property] = .string(text)
            case (.text(let text), .json?): properties[property] = try JSONValue(parsing: text)
            default: throw Unreadable(kinds: kinds ?? "")
            }
        }
        // An entry for a column the table does not have.
        guard next == nil else { throw Unreadable(kinds: kinds ?? "") }
        if !json.isEmpty {
            for (property, value) in try StoreCoding.object(utf8: json).properties { properties[property] = value }
        }
        properties["id"] = .string(id)
        return JSONObject(properties)
    }

    /// Reads a `_kinds` text from the front.
    private struct KindsReader {
        private let bytes: [UInt8]
        private var position = 0

        init(_ text: String) { bytes = Array(text.utf8) }

        var atEnd: Bool { position == bytes.count }

        /// A positive decimal number, or `nil`.
        mutating func number() -> Int? {
            var number = 0
            let start = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                number = number &* 10 &+ Int(bytes[position] - UInt8(ascii: "0"))
                position += 1
            }
            return position > start && position - start < 10 && number > 0 ? number : nil
        }

        mutating func colon() -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return false }
            position += 1
            return true
        }

        /// The next entry, `nil` at the end.
        mutating func entry(_ text: String?) throws -> (number: Int, kind: Kind)? {
            guard !atEnd else { return nil }
            guard let number = number(), position < bytes.count, let kind = Kind(rawValue: bytes[position]) else {
                throw Unreadable(kinds: text ?? "")
            }
            position += 1
            return (number, kind)
        }
    }
}
