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

    /// The value of a property, or `nil` when the property is absent.
    public subscript(name: String) -> JSONValue? {
        get { properties[name] }
        set { properties[name] = newValue }
    }

    /// The property names, sorted.
    public var keys: [String] { properties.keys.sorted() }

    /// The number of properties.
    public var count: Int { properties.count }
}
