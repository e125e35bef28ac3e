/// Thrown by a ``PushHandler`` to stop the push at once; the push ends with ``PushOutcome/abortedByHandler``.
public struct PushAbort: Error, Sendable, Hashable {
    /// Why the handler aborted.
    public var reason: String

    /// Creates an abort with a reason.
    public init(_ reason: String = "aborted by the push handler") {
        self.reason = reason
    }
}
