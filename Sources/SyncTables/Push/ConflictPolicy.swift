/// What push does when the server reports a conflict (HTTP 409 or 412) for an operation.
///
/// ```swift
/// let context = try await SyncContext(store: store, client: client, conflictPolicy: .serverWins)
/// ```
public enum ConflictPolicy: Sendable {
    /// Report every conflict as a ``TableOperationError`` in ``SyncError/pushFailed(_:)`` (the default).
    case manual
    /// Take the server's item: cancel the operation and store the server's version locally.
    case serverWins
    /// Keep the local item: retry the operation at once against the server's current version.
    case clientWins
    /// Decide per conflict.
    case custom(@Sendable (TableOperationError) async throws -> ConflictResolution)
}

/// A decision about one failed operation.
public enum ConflictResolution: Sendable, Hashable {
    /// Remove the operation and store this item locally as server data (for example the server's item).
    case cancelAndUpdateItem(JSONObject)
    /// Remove the operation and delete the local row.
    case cancelAndDiscardItem
    /// Keep the operation queued for the next push, with this item as its data.
    case keepOperation(updatingItem: JSONObject)
    /// Keep the operation with this item and send it again within the current push (once).
    case retry(updatingItem: JSONObject)
    /// Turn the operation into one of another kind with this item, and send it again within the current push
    /// (once): an update whose item the server deleted becomes an insert that creates it again, a delete
    /// becomes an update, an insert refused as a duplicate becomes an update. The local row follows: it is
    /// deleted for a delete, else stored from `item` (its `version` included, for `If-Match`).
    case convert(to: OperationKind, item: JSONObject)
    /// Leave the error for the app to resolve later.
    case unresolved
}
