import Foundation

struct KeyedValueEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ValueEncoder
    let builder: ObjectBuilder
    let codingPath: [any CodingKey]

    private func set(_ value: JSONValue, for key: Key) {
        builder.set(value, for: key.stringValue)
    }

    private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

    mutating func encodeNil(forKey key: Key) throws { set(.null, for: key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), for: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), for: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        set(try ValueEncoder.double(value, at: path(key)), for: key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        set(try ValueEncoder.float(value, at: path(key)), for: key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(.integer(value), for: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        set(try ValueEncoder.integer(value, at: path(key)), for: key)
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        set(try ValueEncoder.integer(value, at: path(key)), for: key)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if T.self == Date.self || T.self == Timestamp.self, codingPath.isEmpty {
            encoder.state.dateKeys.insert(key.stringValue)
        }
        builder.set(try encoder.box(value, at: path(key)), for: key.stringValue)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = ObjectBuilder()
        builder.set(.object(nested), for: key.stringValue)
        return KeyedEncodingContainer(
            KeyedValueEncodingContainer<NestedKey>(encoder: encoder, builder: nested, codingPath: path(key))
        )
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = ArrayBuilder()
        builder.set(.array(nested), for: key.stringValue)
        return UnkeyedValueEncodingContainer(encoder: encoder, builder: nested, codingPath: path(key))
    }

    mutating func superEncoder() -> any Encoder {
        deferredEncoder(named: "super", path: codingPath + [JSONCodingKey(stringValue: "super")])
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        deferredEncoder(named: key.stringValue, path: path(key))
    }

    private func deferredEncoder(named name: String, path: [any CodingKey]) -> any Encoder {
        let child = ValueEncoder(state: encoder.state, codingPath: path)
        builder.set(.deferred(child), for: name)
        return child
    }
}

struct UnkeyedValueEncodingContainer: UnkeyedEncodingContainer {
    let encoder: ValueEncoder
    let builder: ArrayBuilder
    let codingPath: [any CodingKey]

    var count: Int { builder.elements.count }

    private func append(_ value: JSONValue) { builder.elements.append(.value(value)) }
    private var nextPath: [any CodingKey] { codingPath + [JSONCodingKey(index: count)] }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(try ValueEncoder.double(value, at: nextPath)) }
    mutating func encode(_ value: Float) throws { append(try ValueEncoder.float(value, at: nextPath)) }
    mutating func encode(_ value: Int) throws { append(.integer(Int64(value))) }
    mutating func encode(_ value: Int8) throws { append(.integer(Int64(value))) }
    mutating func encode(_ value: Int16) throws { append(.integer(Int64(value))) }
    mutating func encode(_ value: Int32) throws { append(.integer(Int64(value))) }
    mutating func encode(_ value: Int64) throws { append(.integer(value)) }
    mutating func encode(_ value: UInt) throws { append(try ValueEncoder.integer(value, at: nextPath)) }
    mutating func encode(_ value: UInt8) throws { append(.integer(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { append(.integer(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { append(.integer(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { append(try ValueEncoder.integer(value, at: nextPath)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        builder.elements.append(try encoder.box(value, at: nextPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let path = nextPath
        let nested = ObjectBuilder()
        builder.elements.append(.object(nested))
        return KeyedEncodingContainer(
            KeyedValueEncodingContainer<NestedKey>(encoder: encoder, builder: nested, codingPath: path)
        )
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = nextPath
        let nested = ArrayBuilder()
        builder.elements.append(.array(nested))
        return UnkeyedValueEncodingContainer(encoder: encoder, builder: nested, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let child = ValueEncoder(state: encoder.state, codingPath: nextPath)
        builder.elements.append(.deferred(child))
        return child
    }
}

struct SingleValueEncodingBox: SingleValueEncodingContainer {
    let encoder: ValueEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ value: JSONValue) { encoder.node = .value(value) }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(try ValueEncoder.double(value, at: codingPath)) }
    mutating func encode(_ value: Float) throws { set(try ValueEncoder.float(value, at: codingPath)) }
    mutating func encode(_ value: Int) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: Int8) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: Int16) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: Int32) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: Int64) throws { set(.integer(value)) }
    mutating func encode(_ value: UInt) throws { set(try ValueEncoder.integer(value, at: codingPath)) }
    mutating func encode(_ value: UInt8) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { set(try ValueEncoder.integer(value, at: codingPath)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.node = try encoder.box(value, at: codingPath)
    }
}
