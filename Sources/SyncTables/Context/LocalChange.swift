/// One local write to an item, prepared by ``SyncTable`` (id checked, row built) for the context to apply.
enum LocalChange: Sendable {
    /// Insert a new item; the object already carries its final `id`.
    case insert(JSONObject)
    /// Replace the item with this object (server-owned properties are merged from the stored row).
    case update(JSONObject)
    /// Delete the item; `item` is the app's copy, kept in the operation when no row is stored.
    case delete(id: String, item: JSONObject?)

    /// The kind of operation the change queues.
    var kind: OperationKind {
        switch self {
        case .insert: .insert
        case .update: .update
        case .delete: .delete
        }
    }

    /// The id of the item it changes.
    var itemId: String {
        switch self {
        case .insert(let object), .update(let object):
            if case .string(let id)? = object["id"] { return id }
            return ""
        case .delete(let id, _):
            return id
        }
    }
}
