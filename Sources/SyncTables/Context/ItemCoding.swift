@_spi(SyncTablesTools) import SyncTablesCore

/// Converts between a table's item type and the JSON objects the store keeps.
///
/// `JSONObject` passes through untouched; other types go through `JSONValueEncoder`/`JSONValueDecoder`
/// (dates as ISO-8601 with milliseconds) and must encode to a JSON object.
enum ItemCoding {
    /// The system properties a local write never stores from the app's item.
    static let serverOwnedProperties = ["createdAt", "updatedAt", "deleted"]

    /// The JSON object for `item`, and the top-level properties that were encoded from `Date`s.
    static func object<Item: SyncItem>(from item: Item) throws(SyncError) -> (JSONObject, dateProperties: Set<String>) {
        if Item.self == JSONObject.self, let object = item as? JSONObject {
            // Its `id` reads as "" when not a string: an insert would store the item under a new id.
            if let id = object["id"], id.stringValue == nil, !id.isNull {
                throw .invalidItemID(id.description, reason: "the id is \(id.kindForMessages), not a string")
            }
            return (object, [])
        }
        let encoded: (value: JSONValue, dateKeys: Set<String>)
        do {
            encoded = try JSONValueEncoder().encodeWithDateKeys(item)
        } catch {
            throw .encoding(type: typeName(Item.self), message: String(describing: error))
        }
        guard case .object(let object) = encoded.value else { throw .itemNotObject(type: typeName(Item.self)) }
        return (object, encoded.dateKeys)
    }

    /// The item stored as `object` in `table`.
    static func item<Item: SyncItem>(_ type: Item.Type, from object: JSONObject, table: String) throws(SyncError)
        -> Item
    {
        if let item = object as? Item { return item }
        do {
            return try JSONValueDecoder().decode(Item.self, from: .object(object))
        } catch {
            var id: String?
            if case .string(let value)? = object["id"] { id = value }
            throw .decoding(type: typeName(Item.self), table: table, id: id, message: String(describing: error))
        }
    }

    /// The row a local insert stores: the item without server-owned system properties (`version` stays).
    static func rowForInsert(_ object: JSONObject) -> JSONObject {
        var row = object
        for name in serverOwnedProperties {
            row[name] = nil
        }
        return row
    }

    /// The row a local update stores: the item without server-owned system properties, keeping the stored
    /// row's `createdAt`/`updatedAt` and, when the item carries none, its `version` (for `If-Match`).
    static func rowForUpdate(_ object: JSONObject, existing: JSONObject?) -> JSONObject {
        var row = rowForInsert(object)
        guard let existing else { return row }
        row["createdAt"] = existing["createdAt"]
        row["updatedAt"] = existing["updatedAt"]
        if row["version"] == nil || row["version"] == .null {
            row["version"] = existing["version"]
        }
        return row
    }

    static func typeName(_ type: Any.Type) -> String {
        String(describing: type)
    }
}
