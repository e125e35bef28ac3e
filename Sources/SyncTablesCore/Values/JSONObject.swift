/// A JSON object: the untyped item that tools, stores and the wire work with.
///
/// `JSONObject` is itself a ``SyncItem`` whose `id` is its `"id"` string property, so a table can be opened
/// untyped: `context.table(JSONObject.self, named: "TodoItem")`.
///
/// ```swift
/// var item: JSONObject = ["id": "a", "text": "Buy milk"]
/// item["complete"] = false
/// ```
public struct JSONObject: Sendable, Hashable {
    /// The properties, by name.
    public var properties: [String: JSONValue]

    /// Creates an object from its properties.
    public init(_ properties: [String: JSONValue] = [:]) {
        self.properties = properties
    }

    /// Creates an object from name/value pairs; a repeated name keeps its last value.
    init(uniquingPairs pairs: [(String, JSONValue)]) {
        self.properties = Dictionary(pairs, uniquingKeysWith: { _, last in last })
    }

    /// The value of a property, or `nil` when the property is absent.
    public subscript(name: String) -> JSONValue? {
        get { properties[name] }
        set { properties[name] = newValue }
    }

    /// The property names, sorted by their UTF-8 bytes (the order of canonical JSON).
    public var keys: [String] { properties.keys.sorted(by: JSONObject.utf8Precedes) }

    /// The number of properties.
    public var count: Int { properties.count }

    /// `true` when the object has no properties.
    public var isEmpty: Bool { properties.isEmpty }

    /// Orders names by UTF-8 bytes, like SQLite's BINARY collation (Swift's `<` normalizes Unicode first).
    static func utf8Precedes(_ lhs: String, _ rhs: String) -> Bool {
        let fast = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in
                let common = Swift.min(left.count, right.count)
                for index in 0..<common where left[index] != right[index] {
                    return left[index] < right[index]
                }
                return left.count < right.count
            }
        }
        return (fast ?? nil) ?? lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// Creates an object from a literal; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(uniquingPairs: elements)
    }
}

extension JSONObject: CustomStringConvertible {
    /// The object as compact, canonical JSON text (keys sorted by their UTF-8 bytes).
    public var description: String { JSONValue.object(self).jsonString }
}

extension JSONObject: SyncItem {
    /// The `"id"` string property, or an empty string when it is absent or not a string.
    public var id: String { self["id"]?.stringValue ?? "" }
}
