import Foundation
import Logging

/// The ``SyncEngine``'s push failure policy: operations waiting out a backoff are not sent, and failures are
/// scheduled for a retry or dead-lettered in the transaction that records them. The retry state is the
/// engine's (``RetryRecord``, in `__retries`).
struct EngineFailurePolicy: PushFailurePolicy {
    var retry: RetryPolicy
    /// The engine clock's time when the push started: operations whose retry time is later wait.
    var now: Date
    /// The engine's clock: a retry time counts from the failure, not from the push's start (a push that
    /// ran long would otherwise schedule retries that are already overdue when it ends).
    var clock: any SyncClock
    /// A uniform random number in `[0, 1)` for the jitter.
    var unitRandom: @Sendable () -> Double
    /// Conflict policies that replace the context's for some tables.
    var conflictPolicies: [String: ConflictPolicy] = [:]
    /// Where each operation's outcome is logged (debug level; dead-lettering at warning).
    var logger: Logger?

    /// Schedules or dead-letters an operation whose attempt just failed; `operation` is saved by the caller.
    func recordFailure(
        of operation: inout PendingOperation,
        status: Int?,
        message: String?,
        retryAfter: Duration?,
        permanent: Bool,
        in transaction: any StoreTransaction
    ) throws {
        var record = try RetryRecord.current(for: operation, in: transaction)
        let failedAt = clock.now()
        record.recordFailure(DeadOperation.Attempt(at: failedAt, status: status, message: message))
        let metadata: Logger.Metadata = [
            "operation": "\(operation.id)", "table": "\(operation.table)", "item": "\(operation.itemId)",
            "status": "\(status.map(String.init) ?? "none")", "failures": "\(record.failures)",
        ]
        switch permanent ? .permanent : FailureClass(status: status) {
        case .permanent:
            operation.state = .dead
            logger?.warning("operation dead-lettered: permanent failure", metadata: metadata)
        case .transient where record.failures >= retry.maxAttempts:
            operation.state = .dead
            logger?.warning("operation dead-lettered: too many transient failures", metadata: metadata)
        case .transient:
            let delay = retryAfter ?? retry.delay(afterFailures: record.failures, unit: unitRandom())
            record.nextAttemptAt = Timestamp(date: failedAt.addingTimeInterval(delay.timeInterval))
            logger?.debug("operation retry scheduled in \(delay)", metadata: metadata)
        case .conflict, .authentication:
            break  // the conflict policy decides; a 401 aborts the push before anything is recorded
        }
        try record.save(in: transaction)
    }

    func conflictPolicy(for table: String) -> ConflictPolicy? {
        conflictPolicies[table]
    }

    var deadLettersUnresolvedConflicts: Bool { true }

    /// Whether the push passes `operation` over: dead, or waiting out its backoff.
    func skips(_ operation: PendingOperation, in transaction: any StoreTransaction) throws -> Bool {
        if operation.state == .dead { return true }
        return try RetryRecord.isWaiting(operation, at: now, in: transaction)
    }
}
