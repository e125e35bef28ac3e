/// How a top-level JSON value becomes the ``ProjectedValue`` that filters and orderings see.
///
/// The SQLite store writes exactly these values into its projected columns; the memory store and the server's
/// PostgreSQL backend compute them on the fly. Date properties turn ISO-8601 strings into 100 ns ticks so
/// they compare as instants.
///
/// ```swift
/// Projection.project(.string("2024-05-01T10:00:00Z"), isDate: true)   // .integer(…): the instant in ticks
/// Projection.project(.string("2024-05-01T10:00:00Z"), isDate: false)  // .text("2024-05-01T10:00:00Z")
/// Projection.project(.bool(true), isDate: false)                      // .integer(1)
/// ```
@_spi(SyncTablesTools) public enum Projection {
    /// Projects a property value; `isDate` when the table lists the property among its date properties.
    @_spi(SyncTablesTools) public static func project(_ value: JSONValue?, isDate: Bool) -> ProjectedValue {
        guard let value else { return .null }
        switch value {
        case .null: return .null
        case .bool(let flag): return .integer(flag ? 1 : 0)
        case .integer(let integer): return .integer(integer)
        case .double(let double): return double.isNaN ? .null : .real(double)
        case .string(let text):
            if isDate, let ticks = ticks(iso8601: text) { return .integer(ticks) }
            return .text(text)
        case .array, .object: return .text(value.jsonString)
        }
    }

    /// Projects a constant of a filter (never a date property, so strings stay text).
    @_spi(SyncTablesTools) public static func literal(_ value: JSONValue) -> ProjectedValue {
        project(value, isDate: false)
    }

    /// The 100 ns ticks of an ISO-8601 date-time (`2024-05-01T10:00:00.1234567+02:00`), or `nil` if the text
    /// is not one: how a string in a date property becomes an instant.
    @_spi(SyncTablesTools) public static func ticks(iso8601 text: String) -> Int64? {
        // Every date-time is at least 20 bytes long: skip the parser (and its error) for short strings.
        guard text.utf8.count >= 20 else { return nil }
        return Timestamp(parsing: text)?.ticks
    }
}
