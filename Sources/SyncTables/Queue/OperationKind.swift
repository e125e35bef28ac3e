/// What a queued operation will do on the server: create, change or remove one item.
public enum OperationKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Create the item (`POST`).
    case insert
    /// Change the item (`PATCH`).
    case update
    /// Remove the item (`DELETE`).
    case delete

    /// The kind's name, e.g. `insert`.
    public var description: String { rawValue }
}

/// Where a queued operation stands in its journey to the server.
public enum OperationState: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Never sent, or changed locally since it was last sent.
    case pending
    /// A push has started sending it; the server may or may not have applied it.
    case attempted
    /// The last push attempt failed; the operation stays in the queue until it succeeds or is resolved.
    case failed
    /// Dead-lettered by the ``SyncEngine``: it failed permanently, or transiently too often. Push no longer
    /// sends it and it blocks nothing but, for an insert, the children held for it (``ParentHold``); its item
    /// stays skipped by pulls. A local write to the item revives
    /// it (state `pending`), as do ``SyncContext/retryDeadOperations(ids:)`` and a resolution of its error.
    case dead

    /// The state's name, e.g. `pending`.
    public var description: String { rawValue }
}
