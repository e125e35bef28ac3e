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
    /// A pending operation was discarded without being sent (a dead one too, discarded or reverted to the
    /// server's copy).
    case operationDiscarded(PendingOperation)
    /// An operation was dead-lettered (see ``DeadOperation``): it failed permanently, too often, or in a
    /// conflict nothing resolved, and push no longer sends it.
    case operationDeadLettered(PendingOperation)
    /// Dead operations were put back in the queue (``SyncContext/retryDeadOperations(ids:)``).
    case deadOperationsRetried(ids: [String])
    /// A push started with this many pending operations.
    case pushStarted(pendingOperations: Int)
    /// The server confirmed an operation; it left the queue.
    case operationPushed(table: String, id: String, kind: OperationKind)
    /// The server refused an operation (`status` is `nil` when no response was involved); it stays queued.
    case operationFailed(table: String, id: String, kind: OperationKind, status: Int?)
    /// A push ended.
    case pushFinished(status: PushOutcome, pushed: Int, failed: Int)
    /// A pull of a table started (`queryId` is `nil` for a full pull).
    case pullStarted(table: String, queryId: String?)
    /// A pulled page was committed locally, with its token.
    case pullPageApplied(table: String, queryId: String?, upserted: Int, deleted: Int, skipped: Int)
    /// A pull ended successfully after receiving this many records.
    case pullFinished(table: String, queryId: String?, received: Int)
    /// A purge of a table started.
    case purgeStarted(table: String)
    /// A purge committed.
    case purgeFinished(table: String, summary: PurgeSummary)
    /// A wipe committed: every table, the queue and the sync state are empty (see
    /// ``SyncContext/wipe(waitingForSync:)``).
    case storeWiped(summary: WipeSummary)
    /// Bytes of an attachment's file moved: `transferred` of its `total` bytes are on the server (an upload)
    /// or on the device (a download). Published as chunks go, for a progress bar.
    case attachmentProgress(sha256: String, direction: AttachmentTransferDirection, transferred: Int64, total: Int64)
    /// An attachment's file finished moving: it is on the server (an upload, or the server had it already)
    /// or on the device (a download).
    case attachmentTransferred(sha256: String, direction: AttachmentTransferDirection, bytes: Int64)
}

/// Which way an attachment's file moves.
public enum AttachmentTransferDirection: String, Sendable, Hashable {
    /// From the device to the server, before the first operation that references it.
    case upload
    /// From the server to the device.
    case download
}
