import Foundation

/// A queued operation and how its delivery is going, for an app's operations screen: how often it was
/// sent, how often the ``SyncEngine`` saw it fail, when the engine sends it again, and the parent it waits
/// for, if any.
///
/// ```swift
/// for entry in try await context.pendingOperationStatuses() {
///     let next = entry.parentHold.map(String.init(describing:))
///         ?? entry.nextAttemptAt.map { "retry at \($0)" } ?? "next push"
///     print(entry.operation.kind, entry.operation.itemId, entry.operation.attempts, next)
/// }
/// ```
public struct PendingOperationStatus: Sendable, Hashable, Identifiable {
    /// The operation; its ``PendingOperation/attempts`` counts how many times a push sent it.
    public let operation: PendingOperation
    /// Failed attempts of this version of the operation the engine counted towards
    /// ``RetryPolicy/maxAttempts`` (a local edit of the item starts the count again).
    public let failures: Int
    /// When the engine sends it again; `nil` when it goes with the next push (or, for a dead operation,
    /// not at all until it is retried).
    public let nextAttemptAt: Date?
    /// Its latest failed attempts, oldest first.
    public let recentAttempts: [DeadOperation.Attempt]
    /// The parent whose insert must be pushed before this operation is sent; `nil` when it does not wait for
    /// one (see <doc:ParentsBeforeChildren>).
    public let parentHold: ParentHold?

    /// The operation's id.
    public var id: String { operation.id }

    init(operation: PendingOperation, record: RetryRecord?, parentHold: ParentHold? = nil) {
        self.operation = operation
        self.parentHold = parentHold
        let current = record.flatMap { $0.operationVersion == operation.version ? $0 : nil }
        failures = current?.failures ?? 0
        nextAttemptAt = operation.state == .dead ? nil : current?.nextAttemptAt?.date
        recentAttempts = current?.history ?? []
    }
}
