import Foundation

/// The engine's source of time: what time it is, and waiting until a given time.
///
/// Production code uses ``SystemSyncClock``; tests use ``ManualSyncClock`` so that backoff, cooldowns and
/// retries run without sleeping. Times are wall-clock `Date`s because the engine persists them (a restart
/// mid-backoff waits out the rest).
public protocol SyncClock: Sendable {
    /// The current time.
    func now() -> Date
    /// Returns at `deadline` (at once if it has passed); throws `CancellationError` when cancelled.
    func sleep(until deadline: Date) async throws
}

/// The system's clock.
public struct SystemSyncClock: SyncClock {
    /// The system clock.
    public init() {}

    /// `Date()`.
    public func now() -> Date { Date() }

    /// Sleeps for the time left until `deadline`.
    public func sleep(until deadline: Date) async throws {
        let seconds = deadline.timeIntervalSinceNow
        if seconds > 0 { try await Task.sleep(for: .seconds(seconds)) } else { try Task.checkCancellation() }
    }
}
