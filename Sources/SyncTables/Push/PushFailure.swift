/// Thrown by ``SyncContext/push()`` when the push was aborted or some operations failed.
///
/// Nothing is lost: failed and unsent operations stay in the queue. Resolve each error, or push again.
///
/// ```swift
/// do {
///     try await context.push()
/// } catch let failure as PushFailure {
///     for error in failure.errors where error.status == 412 {
///         try await error.cancelAndUpdateItem(error.serverItem!)   // server wins
///     }
/// }
/// ```
public struct PushFailure: Error, Sendable, CustomStringConvertible {
    /// Why the push ended.
    public var status: PushStatus
    /// The operations that failed in this push and were not resolved by the conflict policy.
    public var errors: [TableOperationError]
    /// The cause of an abort (network, store or handler error), when there was one.
    public var reason: String?
    /// What the push did get done before it ended: operations confirmed and conflicts resolved.
    public var summary: PushSummary

    /// Creates a push failure.
    public init(
        status: PushStatus,
        errors: [TableOperationError],
        reason: String? = nil,
        summary: PushSummary = PushSummary()
    ) {
        self.status = status
        self.errors = errors
        self.reason = reason
        self.summary = summary
    }

    /// A one-line summary for logs.
    public var description: String {
        var text = "Push ended with status \(status.rawValue) and \(errors.count) unresolved operation error(s)"
        if let reason { text += ": \(reason)" }
        return text
    }
}
