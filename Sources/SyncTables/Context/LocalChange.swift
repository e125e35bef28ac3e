/// One local write to an item, prepared by ``SyncTable`` (id checked, row built) for the context to apply.
enum LocalChange: Sendable {
    /// Insert a new item; the object already carries its final `id`.
    case insert(JSONObject)
    /// Replace the stored item with this object (server-owned properties are merged from the stored row);
    /// an item that is not stored is refused.
    case update(JSONObject)
    /// ``update(_:)`` when the item is stored, else ``insert(_:)`` (see ``resolved(rowStored:)``).
    case save(JSONObject)
    /// Delete the item; `item` is the app's copy, kept in the operation when no row is stored.
    case delete(id: String, item: JSONObject?)

    /// The kind of operation the change queues.
    var kind: OperationKind {
        switch self {
        case .insert: .insert
        case .update, .save: .update
        case .delete: .delete
        }
    }

    /// The change itself, with a save turned into the update or insert it is, given whether its item's row
    /// is stored.
    func resolved(rowStored: Bool) -> LocalChange {
        guard case .save(let object) = self else { return self }
        return rowStored ? .update(object) : .insert(object)
    }

    /// The id of the item it changes.
    var itemId: String {
        switch self {
        case .insert(let object), .update(let object), .save(let object):
            if case .string(let id)? = object["id"] { return id }
            return ""
        case .delete(let id, _):
            return id
        }
    }
}
