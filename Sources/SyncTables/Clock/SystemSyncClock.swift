import Foundation

/// The system's clock.
public struct SystemSyncClock: SyncClock {
    /// The system clock.
    public init() {}

    /// `Date()`.
    public func now() -> Date { Date() }

    /// Sleeps for the time left until `deadline`.
    ///
    /// - Throws: `CancellationError` when the task is cancelled before `deadline`.
    public func sleep(until deadline: Date) async throws {
        let seconds = deadline.timeIntervalSinceNow
        if seconds > 0 { try await Task.sleep(for: .seconds(seconds)) } else { try Task.checkCancellation() }
    }
}
