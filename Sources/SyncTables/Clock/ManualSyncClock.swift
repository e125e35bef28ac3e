import Foundation
@_spi(SyncTablesTools) import SyncTablesCore

/// A clock that moves only when told to, for tests of code that waits (the ``SyncEngine``'s backoff,
/// cooldowns and retries) without sleeping.
///
/// ```swift
/// let clock = ManualSyncClock()
/// let engine = SyncEngine(context: context, definitions: [...], clock: clock)
/// clock.advance(by: .seconds(30))      // wakes every sleeper whose deadline has come
/// ```
public final class ManualSyncClock: SyncClock {
    private struct Sleeper {
        let deadline: Date
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var current: Date
        var sleepers: [UUID: Sleeper] = [:]
    }

    private let state: LockedState<State>

    /// A clock starting at `start` (by default the current time, so that it agrees with the times the queue
    /// records, such as operations' creation dates).
    public init(start: Date = Date()) {
        state = LockedState(State(current: start))
    }

    /// The clock's time.
    public func now() -> Date { state.withLock { $0.current } }

    /// How many tasks are waiting for a later time.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The earliest time a sleeper waits for, if any.
    public var nextDeadline: Date? { state.withLock { $0.sleepers.values.map(\.deadline).min() } }

    /// Moves the time forward and wakes every sleeper whose deadline has come.
    public func advance(by duration: Duration) {
        advance(to: now().addingTimeInterval(duration.timeInterval))
    }

    /// Moves the time to `date` (never backwards) and wakes every sleeper whose deadline has come.
    public func advance(to date: Date) {
        let woken: [Sleeper] = state.withLock { state in
            state.current = max(state.current, date)
            let due = state.sleepers.filter { $0.value.deadline <= state.current }
            for key in due.keys { state.sleepers[key] = nil }
            return Array(due.values)
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// Returns once the clock reaches `deadline`.
    ///
    /// - Throws: `CancellationError` when the task is cancelled before `deadline`.
    public func sleep(until deadline: Date) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Bool = state.withLock { state in
                    if deadline <= state.current || Task.isCancelled { return true }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }
}
