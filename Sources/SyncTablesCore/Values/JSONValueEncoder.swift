import Foundation

/// Encodes `Encodable` values straight into ``JSONValue`` trees, without going through JSON text.
///
/// Dates become ISO-8601 UTC strings with milliseconds (`2024-05-01T10:00:00.000Z`), `Data` becomes
/// base64, `URL` its absolute string, `UUID` its lowercase string, `Decimal` a number (an error when no
/// 64-bit integer or double holds it exactly). `nil` optionals are left out (the synthesized
/// `encodeIfPresent`), while an explicit `encodeNil` writes `null`.
/// Failures are the standard `EncodingError` with the coding path.
///
/// ```swift
/// let value = try JSONValueEncoder().encode(TodoItem(id: "a", text: "Buy milk", complete: false))
/// ```
public struct JSONValueEncoder: Sendable {
    /// Values handed to `encode(to:)` implementations through `Encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates an encoder.
    public init() {}

    /// Encodes a value into a JSON value.
    ///
    /// - Throws: `EncodingError` for a value JSON cannot hold, and what `T`'s `encode(to:)` throws.
    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        try encodeWithDateKeys(value).value
    }

    /// Encodes a value and reports which top-level properties held a `Date` or a ``Timestamp`` (including
    /// optionals that were present), so a store can declare them as date properties of a typed table.
    ///
    /// ```swift
    /// let (value, dateKeys) = try JSONValueEncoder().encodeWithDateKeys(item)  // dateKeys: ["dueAt"]
    /// ```
    ///
    /// - Throws: `EncodingError` for a value JSON cannot hold, and what `T`'s `encode(to:)` throws.
    public func encodeWithDateKeys<T: Encodable>(_ value: T) throws -> (value: JSONValue, dateKeys: Set<String>) {
        let state = EncodingState(userInfo: userInfo)
        let node = try ValueEncoder(state: state, codingPath: []).box(value, at: [])
        return (node.value, state.dateKeys)
    }
}

/// Shared by every encoder of one `encode` call.
final class EncodingState {
    let userInfo: [CodingUserInfoKey: Any]
    var dateKeys: Set<String> = []

    init(userInfo: [CodingUserInfoKey: any Sendable]) {
        self.userInfo = userInfo
    }
}

/// A value under construction; containers are references so nested containers can fill them later.
enum EncodedNode {
    case value(JSONValue)
    case object(ObjectBuilder)
    case array(ArrayBuilder)
    case deferred(ValueEncoder)

    var value: JSONValue {
        switch self {
        case .value(let value): value
        case .object(let builder): .object(builder.object)
        case .array(let builder): .array(builder.elements.map(\.value))
        case .deferred(let encoder): encoder.node?.value ?? .object(JSONObject())
        }
    }
}

/// An object under construction: finished values, plus containers still being filled.
///
/// Keeping finished values in their final dictionary avoids rebuilding it when encoding ends, which is
/// the whole cost for flat items.
final class ObjectBuilder {
    // Room for a typical item's properties up front: growing from empty rehashed every key three times.
    private var values = [String: JSONValue](minimumCapacity: 8)
    private var pending: [String: EncodedNode] = [:]

    func set(_ value: JSONValue, for key: String) {
        values[key] = value
        if !pending.isEmpty { pending[key] = nil }
    }

    func set(_ node: EncodedNode, for key: String) {
        if case .value(let value) = node {
            set(value, for: key)
        } else {
            pending[key] = node
            values[key] = nil
        }
    }

    var object: JSONObject {
        guard !pending.isEmpty else { return JSONObject(values) }
        var properties = values
        for (key, node) in pending { properties[key] = node.value }
        return JSONObject(properties)
    }
}

final class ArrayBuilder {
    var elements: [EncodedNode] = []
}

final class ValueEncoder: Encoder {
    let state: EncodingState
    let codingPath: [any CodingKey]
    var node: EncodedNode?

    init(state: EncodingState, codingPath: [any CodingKey]) {
        self.state = state
        self.codingPath = codingPath
    }

    var userInfo: [CodingUserInfoKey: Any] { state.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let builder: ObjectBuilder
        if case .object(let existing)? = node {
            builder = existing
        } else {
            builder = ObjectBuilder()
            node = .object(builder)
        }
        return KeyedEncodingContainer(
            KeyedValueEncodingContainer(encoder: self, builder: builder, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let builder: ArrayBuilder
        if case .array(let existing)? = node {
            builder = existing
        } else {
            builder = ArrayBuilder()
            node = .array(builder)
        }
        return UnkeyedValueEncodingContainer(encoder: self, builder: builder, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueEncodingBox(encoder: self)
    }

    /// Encodes a nested value, handling the Foundation types that have a JSON form of their own.
    func box<T: Encodable>(_ value: T, at path: @autoclosure () -> [any CodingKey]) throws -> EncodedNode {
        // The types below are all structs or enums, so comparing the static type is exact; it spares an item
        // (the usual value here) seven dynamic casts.
        guard Self.hasJSONForm(T.self) else {
            let encoder = ValueEncoder(state: state, codingPath: path())
            try value.encode(to: encoder)
            return encoder.node ?? .value(.object(JSONObject()))
        }
        switch value {
        case let json as JSONValue: return .value(json)
        case let object as JSONObject: return .value(.object(object))
        case let date as Date: return .value(.string(Timestamp(date: date).roundedToMilliseconds.iso8601Milliseconds))
        case let data as Data: return .value(.string(data.base64EncodedString()))
        case let url as URL: return .value(.string(url.absoluteString))
        case let uuid as UUID: return .value(.string(uuid.uuidString.lowercased()))
        case let decimal as Decimal: return .value(try Self.number(decimal, at: path()))
        default:
            let encoder = ValueEncoder(state: state, codingPath: path())
            try value.encode(to: encoder)
            return encoder.node ?? .value(.object(JSONObject()))
        }
    }

    /// Whether values of `type` have a JSON form of their own (see ``box(_:at:)``).
    private static func hasJSONForm(_ type: Any.Type) -> Bool {
        type == JSONValue.self || type == JSONObject.self || type == Date.self || type == Data.self
            || type == URL.self || type == UUID.self || type == Decimal.self
    }

    static func integer<I: BinaryInteger>(_ value: I, at path: @autoclosure () -> [any CodingKey]) throws -> JSONValue {
        guard let integer = Int64(exactly: value) else {
            throw EncodingError.invalidValue(
                value,
                .init(codingPath: path(), debugDescription: "\(value) does not fit in a 64-bit signed integer.")
            )
        }
        return .integer(integer)
    }

    static func double(_ value: Double, at path: @autoclosure () -> [any CodingKey]) throws -> JSONValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value,
                .init(codingPath: path(), debugDescription: "Unable to encode \(value) directly in JSON.")
            )
        }
        return .double(value)
    }

    static func float(_ value: Float, at path: @autoclosure () -> [any CodingKey]) throws -> JSONValue {
        // Through the shortest text so 1.1 as Float stays 1.1, not 1.100000023841858.
        try double(Double(value.description) ?? Double(value), at: path())
    }

    /// The decimal as an integer or a double, when that holds it exactly; otherwise an error, since a JSON
    /// number is read back as a double and the value would silently change.
    static func number(_ value: Decimal, at path: @autoclosure () -> [any CodingKey]) throws -> JSONValue {
        let text = value.description
        if let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text), Decimal(string: "\(double)") == value else {
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: path(),
                    debugDescription: "The decimal \(text) has no exact form as a JSON number (a 64-bit integer "
                        + "or a double); store it as a String to keep every digit.")
            )
        }
        return try Self.double(double, at: path())
    }
}
