import Foundation

/// The library's source of time: what time it is, and waiting until a given time.
///
/// The context dates queued operations and history entries with it, and the engine waits with it for its
/// backoff, cooldowns and retries. Production code uses ``SystemSyncClock``; tests use ``ManualSyncClock``
/// so that all of this runs without sleeping. Times are wall-clock `Date`s because the engine persists them
/// (a restart mid-backoff waits out the rest).
public protocol SyncClock: Sendable {
    /// The current time.
    func now() -> Date
    /// Returns at `deadline` (at once if it has passed).
    ///
    /// - Throws: `CancellationError` when the task is cancelled before `deadline`.
    func sleep(until deadline: Date) async throws
}
