struct KeyedValueDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ValueDecoder
    let object: JSONObject
    let codingPath: [any CodingKey]

    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    private func value(for key: Key) throws -> JSONValue {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key,
                .init(codingPath: codingPath, debugDescription: "No value associated with key \"\(key.stringValue)\".")
            )
        }
        return value
    }

    private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

    func decodeNil(forKey key: Key) throws -> Bool { try value(for: key).isNull }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try ValueDecoder.bool(value(for: key), at: path(key))
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try ValueDecoder.string(value(for: key), at: path(key))
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try ValueDecoder.double(value(for: key), at: path(key))
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try ValueDecoder.float(value(for: key), at: path(key))
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }

    private func integer<I: FixedWidthInteger>(_ key: Key) throws -> I {
        try ValueDecoder.integer(value(for: key), as: I.self, at: path(key))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.unbox(value(for: key), as: type, at: path(key))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try childDecoder(value(for: key), path: path(key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try childDecoder(value(for: key), path: path(key)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        childDecoder(object["super"] ?? .null, path: codingPath + [JSONCodingKey(stringValue: "super")])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        childDecoder(object[key.stringValue] ?? .null, path: path(key))
    }

    private func childDecoder(_ value: JSONValue, path: [any CodingKey]) -> ValueDecoder {
        ValueDecoder(value: value, codingPath: path, userInfo: decoder.sendableUserInfo)
    }
}

struct UnkeyedValueDecodingContainer: UnkeyedDecodingContainer {
    let decoder: ValueDecoder
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(decoder: ValueDecoder, elements: [JSONValue], codingPath: [any CodingKey]) {
        self.decoder = decoder
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private var currentPath: [any CodingKey] { path(at: currentIndex) }

    private func path(at index: Int) -> [any CodingKey] { codingPath + [JSONCodingKey(index: index)] }

    /// Returns the next element and moves past it.
    private mutating func next(_ type: Any.Type) throws -> JSONValue {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type,
                .init(codingPath: currentPath, debugDescription: "Unkeyed container is at end.")
            )
        }
        defer { currentIndex += 1 }
        return elements[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any?.self,
                .init(codingPath: currentPath, debugDescription: "Unkeyed container is at end.")
            )
        }
        if elements[currentIndex].isNull {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let index = currentIndex
        return try ValueDecoder.bool(next(type), at: path(at: index))
    }
    mutating func decode(_ type: String.Type) throws -> String {
        let index = currentIndex
        return try ValueDecoder.string(next(type), at: path(at: index))
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        let index = currentIndex
        return try ValueDecoder.double(next(type), at: path(at: index))
    }
    mutating func decode(_ type: Float.Type) throws -> Float {
        let index = currentIndex
        return try ValueDecoder.float(next(type), at: path(at: index))
    }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer() }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer() }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }

    private mutating func integer<I: FixedWidthInteger>() throws -> I {
        let index = currentIndex
        return try ValueDecoder.integer(next(I.self), as: I.self, at: path(at: index))
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let index = currentIndex
        return try decoder.unbox(next(type), as: type, at: path(at: index))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let path = currentPath
        return try childDecoder(next([String: Any].self), path: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let path = currentPath
        return try childDecoder(next([Any].self), path: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let path = currentPath
        return try childDecoder(next(Any.self), path: path)
    }

    private func childDecoder(_ value: JSONValue, path: [any CodingKey]) -> ValueDecoder {
        ValueDecoder(value: value, codingPath: path, userInfo: decoder.sendableUserInfo)
    }
}

struct SingleValueDecodingBox: SingleValueDecodingContainer {
    let decoder: ValueDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }
    private var value: JSONValue { decoder.value }

    func decodeNil() -> Bool { value.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try ValueDecoder.bool(value, at: codingPath) }
    func decode(_ type: String.Type) throws -> String { try ValueDecoder.string(value, at: codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try ValueDecoder.double(value, at: codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try ValueDecoder.float(value, at: codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try integer() }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
    func decode(_ type: UInt.Type) throws -> UInt { try integer() }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }

    private func integer<I: FixedWidthInteger>() throws -> I {
        try ValueDecoder.integer(value, as: I.self, at: codingPath)
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decoder.unbox(value, as: type, at: codingPath)
    }
}
