/// How a push ended.
public enum PushOutcome: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Every queued operation was confirmed by the server or resolved by the conflict policy.
    case succeeded
    /// Every queued operation was tried, and some failed: each has a ``TableOperationError`` and stays queued.
    case completedWithErrors
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

    /// The status in words, for logs and messages ("completed with errors").
    public var description: String {
        switch self {
        case .succeeded: "succeeded"
        case .completedWithErrors: "completed with errors"
        case .abortedNetwork: "aborted: network"
        case .abortedAuthentication: "aborted: authentication"
        case .abortedStore: "aborted: local store"
        case .cancelled: "cancelled"
        case .abortedByHandler: "aborted by the push handler"
        }
    }
}
