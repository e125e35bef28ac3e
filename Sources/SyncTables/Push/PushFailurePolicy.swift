import Foundation
import Logging

/// What a push does beyond recording a failed operation's error, and which operations it passes over.
///
/// Every push has one: ``RecordingFailurePolicy`` for a plain push (``SyncContext/push()``), which only
/// records failures, and the engine's ``EngineFailurePolicy``, which retries with backoff and dead-letters.
protocol PushFailurePolicy: Sendable {
    /// Whether the push passes `operation` over (a dead one always).
    func skips(_ operation: PendingOperation, in transaction: any StoreTransaction) throws -> Bool

    /// Decides what becomes of an operation whose attempt just failed, in the transaction that records the
    /// failure: it may set the operation's state (`dead`) and keep retry state; the caller saves `operation`.
    ///
    /// `permanent` marks failures no status classifies: the local row is missing, the response unreadable.
    func recordFailure(
        of operation: inout PendingOperation, status: Int?, message: String?, retryAfter: Duration?,
        permanent: Bool, in transaction: any StoreTransaction
    ) throws

    /// The conflict policy for `table` when it replaces the context's, else `nil`.
    func conflictPolicy(for table: String) -> ConflictPolicy?

    /// Whether a conflict no policy resolved is dead-lettered (rather than left failed for the next push).
    var deadLettersUnresolvedConflicts: Bool { get }

    /// Where each operation's outcome is logged, if anywhere.
    var logger: Logger? { get }
}

/// A plain push's failure policy: a failure is recorded and the operation is sent again by the next push;
/// only dead operations are passed over.
struct RecordingFailurePolicy: PushFailurePolicy {
    func skips(_ operation: PendingOperation, in transaction: any StoreTransaction) throws -> Bool {
        operation.state == .dead
    }

    func recordFailure(
        of operation: inout PendingOperation, status: Int?, message: String?, retryAfter: Duration?,
        permanent: Bool, in transaction: any StoreTransaction
    ) throws {}

    func conflictPolicy(for table: String) -> ConflictPolicy? { nil }

    var deadLettersUnresolvedConflicts: Bool { false }

    var logger: Logger? { nil }
}
