/// A JSON value, as it travels on the wire and as stores keep it.
///
/// Integers stay integers (`.integer`), so a value read from the server and written back is unchanged.
///
/// ```swift
/// let value: JSONValue = ["text": "Buy milk", "complete": false, "priority": 2]
/// ```
public enum JSONValue: Sendable, Hashable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without fraction or exponent that fits in 64 bits.
    case integer(Int64)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object(JSONObject)
}
