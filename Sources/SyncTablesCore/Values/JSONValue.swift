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

extension JSONValue {
    /// The string, or `nil` when the value is not a string.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The boolean, or `nil` when the value is not a boolean.
    public var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    /// The integer, also from a double without fraction that fits in 64 bits; otherwise `nil`.
    public var int64Value: Int64? {
        switch self {
        case .integer(let integer): return integer
        case .double(let double): return Int64(exactly: double)
        default: return nil
        }
    }

    /// The number as a double (integers convert, possibly rounding beyond 2^53), or `nil` for non-numbers.
    public var doubleValue: Double? {
        switch self {
        case .integer(let integer): return Double(integer)
        case .double(let double): return double
        default: return nil
        }
    }

    /// The object, or `nil` when the value is not an object.
    public var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The elements, or `nil` when the value is not an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let array) = self { return array }
        return nil
    }

    /// `true` for JSON `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension JSONValue: CustomStringConvertible {
    /// The value as compact, canonical JSON text (object keys sorted by their UTF-8 bytes).
    public var description: String { jsonString }
}
