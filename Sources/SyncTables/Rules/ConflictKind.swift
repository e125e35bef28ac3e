/// What met what in a conflict: the local operation's kind and what the server did to the item.
public enum ConflictKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A local update met a server copy changed since the update's ancestor (412 or 409).
    case updateUpdate
    /// A local update met an item the server deleted (404, 410, or a tombstone in the answer).
    case updateDelete
    /// A local delete met a server copy changed since the delete's ancestor (412 or 409).
    case deleteUpdate
    /// A local insert met an item with the same id on the server (409).
    case insertInsert

    /// The kind's name, e.g. `updateDelete`.
    public var description: String { rawValue }
}
