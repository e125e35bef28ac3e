import Foundation

/// Decodes `Decodable` values straight from ``JSONValue`` trees, without going through JSON text.
///
/// Dates are read from ISO-8601 strings (0–7 fractional digits, `Z` or `±hh:mm` / `±hhmm`; numbers are
/// not dates), `Data` from base64, `URL` and `UUID` from strings, `Decimal` from numbers or strings.
/// Integers accept doubles without fraction; doubles accept integers. Failures are the standard
/// `DecodingError` with the coding path.
///
/// ```swift
/// let item = try JSONValueDecoder().decode(TodoItem.self, from: value)
/// ```
public struct JSONValueDecoder: Sendable {
    /// Values handed to `init(from:)` implementations through `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates a decoder.
    public init() {}

    /// Decodes a value of the given type from a JSON value.
    ///
    /// - Throws: `DecodingError` when the value does not match what `T` decodes, and what `T`'s `init(from:)` throws.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try ValueDecoder(value: value, codingPath: [], userInfo: userInfo).unbox(value, as: type, at: [])
    }

    /// Decodes a value of the given type from a JSON object.
    ///
    /// - Throws: `DecodingError` when the object does not match what `T` decodes, and what `T`'s `init(from:)` throws.
    public func decode<T: Decodable>(_ type: T.Type, from object: JSONObject) throws -> T {
        try decode(type, from: .object(object))
    }
}

final class ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let sendableUserInfo: [CodingUserInfoKey: any Sendable]

    init(value: JSONValue, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: any Sendable]) {
        self.value = value
        self.codingPath = codingPath
        self.sendableUserInfo = userInfo
    }

    var userInfo: [CodingUserInfoKey: Any] { sendableUserInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            throw Self.mismatch([String: Any].self, value, at: codingPath)
        }
        return KeyedDecodingContainer(
            KeyedValueDecodingContainer<Key>(decoder: self, object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw Self.mismatch([Any].self, value, at: codingPath)
        }
        return UnkeyedValueDecodingContainer(decoder: self, elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueDecodingBox(decoder: self)
    }

    /// Decodes a nested value, handling the Foundation types that have a JSON form of their own.
    func unbox<T: Decodable>(_ value: JSONValue, as type: T.Type, at path: @autoclosure () -> [any CodingKey]) throws
        -> T
    {
        let special: Any?
        if type == Date.self {
            special = try Self.date(value, at: path())
        } else if type == Data.self {
            special = try Self.data(value, at: path())
        } else if type == URL.self {
            special = try Self.parsedString(value, as: URL.self, at: path()) { URL(string: $0) }
        } else if type == UUID.self {
            special = try Self.parsedString(value, as: UUID.self, at: path()) { UUID(uuidString: $0) }
        } else if type == Decimal.self {
            special = try Self.decimal(value, at: path())
        } else {
            special = nil
        }
        if let special, let result = special as? T { return result }
        return try T(from: ValueDecoder(value: value, codingPath: path(), userInfo: sendableUserInfo))
    }

    // MARK: Conversions

    static func mismatch(_ type: Any.Type, _ value: JSONValue, at path: @autoclosure () -> [any CodingKey])
        -> DecodingError
    {
        if value.isNull {
            return .valueNotFound(
                type,
                .init(codingPath: path(), debugDescription: "Expected \(type) value but found null instead.")
            )
        }
        return .typeMismatch(
            type,
            .init(
                codingPath: path(), debugDescription: "Expected to decode \(type) but found \(value.kindName) instead.")
        )
    }

    static func bool(_ value: JSONValue, at path: @autoclosure () -> [any CodingKey]) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(Bool.self, value, at: path()) }
        return bool
    }

    static func string(_ value: JSONValue, at path: @autoclosure () -> [any CodingKey]) throws -> String {
        guard case .string(let string) = value else { throw mismatch(String.self, value, at: path()) }
        return string
    }

    static func double(_ value: JSONValue, at path: @autoclosure () -> [any CodingKey]) throws -> Double {
        switch value {
        case .double(let double): return double
        case .integer(let integer): return Double(integer)
        default: throw mismatch(Double.self, value, at: path())
        }
    }

    static func float(_ value: JSONValue, at path: @autoclosure () -> [any CodingKey]) throws -> Float {
        let double = try Self.double(value, at: path())
        let float = Float(double)
        guard float.isFinite else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: path(), debugDescription: "The number \(double) does not fit in Float.")
            )
        }
        return float
    }

    static func integer<I: FixedWidthInteger>(
        _ value: JSONValue, as type: I.Type, at path: @autoclosure () -> [any CodingKey]
    ) throws -> I {
        let result: I?
        switch value {
        case .integer(let integer): result = I(exactly: integer)
        case .double(let double): result = I(exactly: double)
        default: throw mismatch(I.self, value, at: path())
        }
        guard let result else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: path(), debugDescription: "The number \(value) does not fit in \(I.self).")
            )
        }
        return result
    }

    static func date(_ value: JSONValue, at path: @autoclosure () -> [any CodingKey]) throws -> Date {
        guard case .string(let text) = value else {
            throw mismatch(Date.self, value, at: path())
        }
        do {
            return try Timestamp(iso8601: text).date
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: error.description))
        }
    }

    static func data(_ value: JSONValue, at path: @autoclosure () -> [any CodingKey]) throws -> Data {
        try parsedString(value, as: Data.self, at: path()) { Data(base64Encoded: $0) }
    }

    static func decimal(_ value: JSONValue, at path: @autoclosure () -> [any CodingKey]) throws -> Decimal {
        switch value {
        case .integer(let integer): return Decimal(integer)
        case .double(let double): return Decimal(string: double.description) ?? Decimal(double)
        case .string: return try parsedString(value, as: Decimal.self, at: path()) { Decimal(string: $0) }
        default: throw mismatch(Decimal.self, value, at: path())
        }
    }

    static func parsedString<T>(
        _ value: JSONValue,
        as type: T.Type,
        at path: @autoclosure () -> [any CodingKey],
        _ parse: (String) -> T?
    ) throws -> T {
        guard case .string(let text) = value else { throw mismatch(type, value, at: path()) }
        guard let result = parse(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: path(), debugDescription: "The string \"\(text)\" is not a valid \(type).")
            )
        }
        return result
    }
}
