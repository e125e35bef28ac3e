import Foundation

/// A clock that moves only when told to, for tests of code that waits (the ``SyncEngine``'s backoff,
/// cooldowns and retries) without sleeping.
///
/// ```swift
/// let clock = ManualSyncClock()
/// let engine = SyncEngine(context: context, definitions: [...], clock: clock)
/// clock.advance(by: .seconds(30))      // wakes every sleeper whose deadline has come
/// ```
public final class ManualSyncClock: SyncClock, @unchecked Sendable {
    private struct Sleeper {
        let deadline: Date
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = NSLock()
    private var current: Date
    private var sleepers: [UUID: Sleeper] = [:]

    /// A clock starting at `start` (by default the current time, so that it agrees with the times the queue
    /// records, such as operations' creation dates).
    public init(start: Date = Date()) {
        current = start
    }

    /// The clock's time.
    public func now() -> Date { lock.withLock { current } }

    /// How many tasks are waiting for a later time.
    public var sleeperCount: Int { lock.withLock { sleepers.count } }

    /// The earliest time a sleeper waits for, if any.
    public var nextDeadline: Date? { lock.withLock { sleepers.values.map(\.deadline).min() } }

    /// Moves the time forward and wakes every sleeper whose deadline has come.
    public func advance(by duration: Duration) {
        advance(to: now().addingTimeInterval(duration.timeInterval))
    }

    /// Moves the time to `date` (never backwards) and wakes every sleeper whose deadline has come.
    public func advance(to date: Date) {
        let woken: [Sleeper] = lock.withLock {
            current = max(current, date)
            let due = sleepers.filter { $0.value.deadline <= current }
            for key in due.keys { sleepers[key] = nil }
            return Array(due.values)
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// Returns once the clock reaches `deadline`.
    public func sleep(until deadline: Date) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Bool = lock.withLock {
                    if deadline <= current || Task.isCancelled { return true }
                    sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let sleeper = lock.withLock { sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }
}
