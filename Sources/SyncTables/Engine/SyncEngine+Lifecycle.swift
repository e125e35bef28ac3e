import Foundation
@_spi(SyncTablesTools) import SyncTablesCore

// The app's lifecycle: foreground, background, and the bounded cycle of a background task.

extension SyncEngine {
    /// The app came to the foreground: definitions that sync on ``SyncTrigger/foreground`` sync now (with
    /// the queue), and intervals run again (one that passed in the background runs at once).
    public func enteredForeground() {
        scheduler.setActive(true)
        scheduler.fire(.foreground, at: clock.now())
        followChangeFeed()
        wake()
    }

    /// The app went to the background: intervals stop until ``enteredForeground()``, and the change feed
    /// closes until then; the other triggers still work. A cycle running goes on (the system gives the app a
    /// little time).
    public func enteredBackground() {
        scheduler.setActive(false)
        followChangeFeed()
        wake()
    }

    /// Runs one cycle (push, then the definitions due by their ``SyncSchedule/maxAge``) and returns before
    /// `deadline`: what an iOS `BGAppRefreshTask` handler calls (see <doc:TheSyncEngine>).
    ///
    /// When the cycle is not done a second before `deadline` (or when `deadline` is that close) it is
    /// cancelled between two operations, losing nothing, and the report says ``SyncCycleReport/Outcome/cancelled``.
    /// Cancelling the calling task (a background task's expiration handler) cancels the cycle likewise. It
    /// runs whether or not the engine was started, in the states ``syncNow(reason:)`` runs in.
    public func performBackgroundSync(deadline: Date) async -> SyncCycleReport {
        let cycle = cycle(reason: "background", definitions: Array(definitions.indices), explicit: true)
        let stopAt = deadline.addingTimeInterval(-1)
        let first = FirstResult<SyncCycleReport>()
        let clock = clock
        let timer = Task {
            try? await clock.sleep(until: stopAt)
            guard !Task.isCancelled else { return }
            cycle.cancel()
            first.offer(SyncCycleReport(reason: "background", outcome: .cancelled))
        }
        Task {
            first.offer(await cycle.value)
            timer.cancel()
        }
        // The system's expiration handler cancels the calling task: the cycle stops too.
        return await withTaskCancellationHandler {
            await first.value
        } onCancel: {
            cycle.cancel()
            timer.cancel()
            first.offer(SyncCycleReport(reason: "background", outcome: .cancelled))
        }
    }
}

/// The first of several values offered from different tasks.
private final class FirstResult<Value: Sendable>: Sendable {
    private struct State {
        var result: Value?
        var waiter: CheckedContinuation<Value, Never>?
    }

    private let state = LockedState(State())

    func offer(_ value: Value) {
        let waiter: CheckedContinuation<Value, Never>? = state.withLock { state in
            guard state.result == nil else { return nil }
            state.result = value
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: value)
    }

    var value: Value {
        get async {
            await withCheckedContinuation { continuation in
                let ready: Value? = state.withLock { state in
                    if let result = state.result { return result }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}
