@_spi(SyncTablesTools) import SyncTablesCore

/// The one place the stores turn items into JSON text and back, and read ISO-8601 instants.
///
/// Everything forwards to SyncTablesCore (canonical JSON with keys sorted by UTF-8 bytes, strict parsing,
/// `Timestamp(iso8601:)`), so stores, the wire and the server agree on the same text and the same dates.
enum StoreCoding {
    /// Canonical JSON text of a value, used for projected objects and arrays.
    static func canonicalJSONText(_ value: JSONValue) -> String {
        value.jsonString
    }

    /// Canonical JSON bytes of an item: the `_json` column.
    static func canonicalJSONBytes(_ object: JSONObject) -> [UInt8] {
        object.jsonBytes
    }

    /// Reads an object from the UTF-8 JSON text of a `_json` column.
    static func object(utf8 bytes: UnsafeBufferPointer<UInt8>) throws -> JSONObject {
        try JSONObject(parsing: bytes)
    }

    /// Reads an object from JSON text.
    static func object(parsing text: String) throws -> JSONObject {
        try JSONObject(parsing: text)
    }

    /// The 100 ns ticks of an ISO-8601 date-time (`2024-05-01T10:00:00.1234567+02:00`), or `nil` if it is not one.
    static func ticks(iso8601 text: String) -> Int64? {
        Projection.ticks(iso8601: text)
    }
}
