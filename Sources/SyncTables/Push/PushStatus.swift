/// How a push ended.
public enum PushStatus: String, Sendable, Hashable, CaseIterable {
    /// Every queued operation was attempted; failed ones have a ``TableOperationError``.
    case complete
    /// The server could not be reached or the connection broke; the remaining operations stay queued.
    case abortedNetwork
    /// The server answered 401 (and the client's unauthorized hook did not recover); operations stay queued.
    case abortedAuthentication
    /// The local store failed while pushing; operations stay queued.
    case abortedStore
    /// The calling task was cancelled; operations not yet confirmed stay queued.
    case cancelled
    /// A ``PushHandler`` aborted the push by throwing ``PushAbort``.
    case abortedByHandler
}
