@_spi(SyncTablesTools) import SyncTablesCore

/// How a push ended when it did not confirm every operation, carried by ``SyncError/pushFailed(_:)``.
///
/// Nothing is lost: failed and unsent operations stay in the queue. Resolve each error, or push again.
///
/// ```swift
/// do {
///     try await context.push()
/// } catch SyncError.pushFailed(let failure) {
///     for error in failure.errors where error.status == 412 {
///         if let server = try error.serverItem(as: TodoItem.self) {
///             try await error.cancelAndUpdateItem(server)   // server wins
///         }
///     }
/// }
/// ```
public struct PushFailure: Sendable, Hashable, CustomStringConvertible {
    /// Why the push ended: ``PushOutcome/completedWithErrors`` when every operation was tried and some
    /// failed, one of the aborted statuses (or ``PushOutcome/cancelled``) when it stopped early.
    public var status: PushOutcome
    /// The operations that failed in this push and were not resolved by the conflict policy.
    public var errors: [TableOperationError]
    /// The cause of an abort (network, store or handler error), when there was one.
    public var reason: String?
    /// What the push did get done before it ended: operations confirmed and conflicts resolved.
    public var summary: PushSummary

    /// Creates a push failure.
    public init(
        status: PushOutcome,
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
        let failed = "\(errors.count) failed operation" + (errors.count == 1 ? "" : "s")
        var text =
            status == .completedWithErrors
            ? "The push tried every operation; \(failed)"
            : "The push stopped (\(status)) with \(failed)"
        if let reason { text += ": \(reason)" }
        return (text + ".").withoutDoubledPeriods
    }
}
