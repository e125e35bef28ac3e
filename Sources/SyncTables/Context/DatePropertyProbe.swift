import Foundation

/// Finds the top-level `Date` properties of a `Decodable` type without an instance, so a typed table can
/// declare them as date properties of its ``TableDefinition`` (compared and ordered as instants).
///
/// It decodes the type from a decoder that has no data: every `Date` requested at the top level is
/// recorded, and every other request gets a placeholder. Synthesized `Codable` conformances are probed
/// completely. A hand-written `init(from:)` or a property whose type rejects placeholders (e.g. a
/// `String`-backed enum) ends the probe early; the dates found before it still count, and the rest can be
/// declared with `SyncContext.table(_:named:dateProperties:)`.
///
/// The same pass finds every top-level property name, which lets a query refuse a name the type does not
/// have (``SyncError/unknownColumn(_:table:nearest:)``), but only when the probe went through completely.
enum DatePropertyProbe {
    /// The names of the top-level properties `type` decodes as `Date`.
    static func dateProperties(of type: any Decodable.Type) -> Set<String> {
        probe(type).keys
    }

    /// The names of every top-level property `type` decodes, or `nil` when the probe ended early (so some
    /// may be missing).
    static func propertyNames(of type: any Decodable.Type) -> Set<String>? {
        let recorder = probe(type)
        return recorder.completed ? recorder.properties : nil
    }

    private static func probe(_ type: any Decodable.Type) -> Recorder {
        let recorder = Recorder()
        recorder.completed = (try? type.init(from: ProbeDecoder(recorder: recorder, depth: 0))) != nil
        return recorder
    }

    fileprivate final class Recorder {
        /// The top-level date properties.
        var keys: Set<String> = []
        /// Every top-level property.
        var properties: Set<String> = []
        var completed = false
    }

    fileprivate struct ProbeFailed: Error {}

    fileprivate static let placeholderDate = Date(timeIntervalSince1970: 0)
    fileprivate static let maximumDepth = 16
}

private struct ProbeDecoder: Decoder {
    let recorder: DatePropertyProbe.Recorder
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(ProbeKeyedContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        EmptyUnkeyedContainer()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ProbeSingleValueContainer(decoder: self)
    }

    /// A placeholder of any decodable type, recording dates requested at the top level under `key`.
    func placeholder<T: Decodable>(_ type: T.Type, key: String?) throws -> T {
        if type == Date.self, let date = DatePropertyProbe.placeholderDate as? T {
            if depth == 0, let key { recorder.keys.insert(key) }
            return date
        }
        guard depth < DatePropertyProbe.maximumDepth else { throw DatePropertyProbe.ProbeFailed() }
        return try T(from: ProbeDecoder(recorder: recorder, depth: depth + 1))
    }

    /// Records `key` when an optional top-level property of type `T` is a date.
    func noteOptional<T>(_ type: T.Type, key: String) {
        if type == Date.self, depth == 0 { recorder.keys.insert(key) }
    }
}

private struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ProbeDecoder

    init(decoder: ProbeDecoder) {
        self.decoder = decoder
    }
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { note(key); return false }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { note(key); return "probe" }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { note(key); return 0 }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { note(key); return 0 }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { note(key); return 0 }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { note(key); return 0 }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { note(key); return 0 }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { note(key); return 0 }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { note(key); return 0 }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { note(key); return 0 }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { note(key); return 0 }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { note(key); return 0 }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { note(key); return 0 }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { note(key); return 0 }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        note(key)
        return try decoder.placeholder(type, key: key.stringValue)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        note(key)
        decoder.noteOptional(type, key: key.stringValue)
        return nil
    }

    /// Records a property of the probed type itself (not of a nested value).
    private func note(_ key: Key) {
        if decoder.depth == 0 { decoder.recorder.properties.insert(key.stringValue) }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        note(key)
        return KeyedDecodingContainer(ProbeKeyedContainer<NestedKey>(decoder: nested))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        note(key)
        return EmptyUnkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { nested }
    func superDecoder(forKey key: Key) throws -> any Decoder { nested }

    private var nested: ProbeDecoder { ProbeDecoder(recorder: decoder.recorder, depth: decoder.depth + 1) }
}

private struct ProbeSingleValueContainer: SingleValueDecodingContainer {
    let decoder: ProbeDecoder
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { false }
    func decode(_ type: Bool.Type) throws -> Bool { false }
    func decode(_ type: String.Type) throws -> String { "probe" }
    func decode(_ type: Double.Type) throws -> Double { 0 }
    func decode(_ type: Float.Type) throws -> Float { 0 }
    func decode(_ type: Int.Type) throws -> Int { 0 }
    func decode(_ type: Int8.Type) throws -> Int8 { 0 }
    func decode(_ type: Int16.Type) throws -> Int16 { 0 }
    func decode(_ type: Int32.Type) throws -> Int32 { 0 }
    func decode(_ type: Int64.Type) throws -> Int64 { 0 }
    func decode(_ type: UInt.Type) throws -> UInt { 0 }
    func decode(_ type: UInt8.Type) throws -> UInt8 { 0 }
    func decode(_ type: UInt16.Type) throws -> UInt16 { 0 }
    func decode(_ type: UInt32.Type) throws -> UInt32 { 0 }
    func decode(_ type: UInt64.Type) throws -> UInt64 { 0 }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.placeholder(type, key: nil) }
}

/// An empty array: collections decode as empty, which also stops recursive types.
private struct EmptyUnkeyedContainer: UnkeyedDecodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count: Int? { 0 }
    var isAtEnd: Bool { true }
    var currentIndex: Int { 0 }

    mutating func decodeNil() throws -> Bool { throw DatePropertyProbe.ProbeFailed() }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { throw DatePropertyProbe.ProbeFailed() }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        throw DatePropertyProbe.ProbeFailed()
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DatePropertyProbe.ProbeFailed()
    }
    mutating func superDecoder() throws -> any Decoder { throw DatePropertyProbe.ProbeFailed() }
}
