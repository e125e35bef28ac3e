/// An ordered list of HTTP header fields whose names are compared case-insensitively.
///
/// Order is kept as written, names keep their spelling, and a name may repeat.
///
/// ```swift
/// var headers: TransportHeaders = ["Content-Type": "application/json"]
/// headers["if-match"] = "\"v1\""
/// headers["CONTENT-TYPE"]  // "application/json"
/// ```
public struct TransportHeaders: Sendable, Hashable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One header field: its name as written and its value.
    public struct Field: Sendable, Hashable {
        /// The name, spelled as written.
        public var name: String
        /// The value, without surrounding whitespace.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in order.
    public private(set) var fields: [Field]

    /// Creates headers from fields, in order.
    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    /// Creates headers from name–value pairs, in order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The value of the first field with the name (any case), or `nil`; setting replaces every field with
    /// that name by one at the position of the first (or appends it), and `nil` removes them all.
    public subscript(name: String) -> String? {
        get { fields.first { Self.sameName($0.name, name) }?.value }
        set { replaceAll(named: name, with: newValue) }
    }

    /// The values of every field with the name (any case), in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// `true` when a field with the name (any case) is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { Self.sameName($0.name, name) }
    }

    /// Appends a field, keeping any existing field of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field with the name (any case).
    public mutating func remove(_ name: String) {
        fields.removeAll { Self.sameName($0.name, name) }
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// The fields as `Name: value` lines.
    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    private mutating func replaceAll(named name: String, with value: String?) {
        let firstIndex = fields.firstIndex { Self.sameName($0.name, name) }
        fields.removeAll { Self.sameName($0.name, name) }
        guard let value else { return }
        fields.insert(Field(name: name, value: value), at: min(firstIndex ?? fields.count, fields.count))
    }

    /// Header names are ASCII tokens, so an ASCII case fold is exact and avoids Unicode case mapping.
    static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        return zip(lhs.utf8, rhs.utf8).allSatisfy { asciiLowercase($0) == asciiLowercase($1) }
    }

    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte + 0x20 : byte
    }
}
