import SyncTablesCore

/// Converts between request/response bytes and the shared JSON value model.
///
/// The one place the server touches JSON text, so request parsing and response writing have a single owner.
package enum WireJSON {
    /// Parses a complete JSON document; malformed input is a 400 that says what is wrong.
    package static func parse(_ bytes: [UInt8]) throws(ServerError) -> JSONValue {
        do {
            return try JSONValue(parsing: bytes)
        } catch {
            throw ServerError(.badRequest, "The request body is not valid JSON: \(error)")
        }
    }

    /// Serializes a value as compact JSON with sorted keys.
    static func bytes(_ value: JSONValue) -> [UInt8] {
        value.jsonBytes
    }
}
