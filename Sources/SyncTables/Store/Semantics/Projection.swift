/// How a top-level JSON value becomes the ``ProjectedValue`` that filters and orderings see.
///
/// The SQLite store writes exactly these values into its projected columns; the memory store computes them
/// on the fly. Date properties turn ISO-8601 strings into 100 ns ticks so they compare as instants.
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
            if isDate, let ticks = StoreCoding.ticks(iso8601: text) { return .integer(ticks) }
            return .text(text)
        case .array, .object: return .text(StoreCoding.canonicalJSONText(value))
        }
    }

    /// Projects a constant of a filter (never a date property, so strings stay text).
    @_spi(SyncTablesTools) public static func literal(_ value: JSONValue) -> ProjectedValue {
        project(value, isDate: false)
    }
}
