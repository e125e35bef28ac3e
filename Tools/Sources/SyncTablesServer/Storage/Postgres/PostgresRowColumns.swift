import SyncTables
@_spi(SyncTablesTools) import SyncTablesCore

/// The columns the PostgreSQL backend stores beside a row's JSON, so filters and orderings run in SQL with
/// exactly the semantics of the SQLite backend (`ProjectedValue`).
///
/// - `keys`: each property's projected value as JSON: numbers (booleans as 0/1), strings (objects and arrays as
///   their canonical JSON text); null and absent properties are left out. The date properties
///   (``dateProperties``) hold their 100 ns ticks when they read as ISO-8601 date-times, as their SQLite
///   columns do, so they order and compare as instants and the `updatedAt` index serves `updatedAt ge …`.
/// - `instants`: for each projected string that reads as an ISO-8601 date-time, its 100 ns ticks, which
///   comparisons with `datetimeoffset'…'` constants compare.
enum PostgresRowColumns {
    /// The properties projected as instants: those every SQLite table has (`TableDefinition`).
    static let dateProperties: Set<String> = ["createdAt", "updatedAt"]

    /// The `keys` and `instants` JSON texts of one row.
    static func columns(of item: JSONObject) -> (keys: String, instants: String) {
        var keys = JSONObject()
        var instants = JSONObject()
        for (name, value) in item.properties {
            switch Projection.project(value, isDate: dateProperties.contains(name)) {
            case .null:
                break
            case .integer(let integer):
                keys[name] = .integer(integer)
            case .real(let real):
                // JSON has no infinities; such a value is left out (it filters as null).
                if real.isFinite { keys[name] = .double(real) }
            case .text(let text):
                keys[name] = .string(text)
                if let ticks = Projection.ticks(iso8601: text) { instants[name] = .integer(ticks) }
            }
        }
        return (String(decoding: keys.jsonBytes, as: UTF8.self), String(decoding: instants.jsonBytes, as: UTF8.self))
    }
}
