import Foundation

/// A row of a system table read field by field, with one rule for what is missing or malformed: a required
/// field throws ``SyncError/corruptSystemTable(table:message:)`` naming the row and the field; an optional
/// one that is absent, null or of another type reads as `nil`.
struct SystemRow {
    let object: JSONObject
    let table: String

    init(_ object: JSONObject, table: String) {
        self.object = object
        self.table = table
    }

    func string(_ field: String) throws(SyncError) -> String {
        guard case .string(let value)? = object[field] else { throw corrupt(field) }
        return value
    }

    func integer(_ field: String) throws(SyncError) -> Int {
        guard case .integer(let value)? = object[field] else { throw corrupt(field) }
        return Int(value)
    }

    /// A time stored as ISO 8601 text.
    func timestamp(_ field: String) throws(SyncError) -> Timestamp {
        guard let value = try? Timestamp(iso8601: try string(field)) else { throw corrupt(field) }
        return value
    }

    /// A string field holding one of `Value`'s raw values.
    func value<Value: RawRepresentable>(_ field: String, as type: Value.Type) throws(SyncError) -> Value
    where Value.RawValue == String {
        guard let value = Value(rawValue: try string(field)) else { throw corrupt(field) }
        return value
    }

    func optionalString(_ field: String) -> String? {
        if case .string(let value)? = object[field] { return value }
        return nil
    }

    func optionalInteger(_ field: String) -> Int? {
        if case .integer(let value)? = object[field] { return Int(value) }
        return nil
    }

    func optionalObject(_ field: String) -> JSONObject? {
        if case .object(let value)? = object[field] { return value }
        return nil
    }

    func optionalTimestamp(_ field: String) -> Timestamp? {
        optionalString(field).flatMap { try? Timestamp(iso8601: $0) }
    }

    func optionalArray(_ field: String) -> [JSONValue]? {
        if case .array(let value)? = object[field] { return value }
        return nil
    }

    /// The error for a field that is missing or malformed.
    func corrupt(_ field: String) -> SyncError {
        let id = optionalString("id") ?? "?"
        return .corruptSystemTable(table: table, message: "row '\(id)' has a missing or invalid '\(field)'")
    }
}
