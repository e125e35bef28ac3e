/// Something that happened in a ``SyncContext``, delivered to every subscriber of ``SyncContext/events``.
///
/// Local writes are reported after they commit. Push, pull and purge add their own cases.
///
/// ```swift
/// for await event in context.events {
///     if case .itemsInserted(let table, let ids) = event { print("\(ids.count) new in \(table)") }
/// }
/// ```
public enum SyncEvent: Sendable, Hashable {
    /// Items were inserted locally and their insert operations queued (one event per batch).
    case itemsInserted(table: String, ids: [String])
    /// An item was updated locally and its operation queued or collapsed.
    case itemUpdated(table: String, id: String)
    /// An item was deleted locally and its operation queued or collapsed.
    case itemDeleted(table: String, id: String)
    /// A pending operation was discarded without being sent.
    case operationDiscarded(PendingOperation)
}
