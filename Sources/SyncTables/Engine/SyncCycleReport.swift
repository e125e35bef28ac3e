/// What one ``SyncEngine`` cycle did.
public struct SyncCycleReport: Sendable, CustomStringConvertible {
    /// How a cycle ended.
    public enum Outcome: Sendable, Hashable {
        /// Push and every pull ran (some operations may have failed and wait for a retry or are dead).
        case completed
        /// A transient failure ended it; the engine backs off or opened its breaker.
        case failed(reason: String)
        /// It did not run, because of the engine's state (stopped, paused, blocked).
        case skipped(SyncEngineState)
        /// The engine was stopped while it ran.
        case cancelled
    }

    /// Why the cycle ran, as given to ``SyncEngine/syncNow(reason:)``.
    public var reason: String
    /// How it ended.
    public var outcome: Outcome
    /// Operations the server confirmed.
    public var pushedOperations = 0
    /// Operations that failed in this cycle (waiting for a retry, dead-lettered or unresolved conflicts).
    public var failedOperations = 0
    /// The pulls that ran, by table.
    public var pulls: [(table: String, summary: PullSummary)] = []
    /// Tables of definitions not pulled because their last pull is more recent than their
    /// ``SyncSchedule/maxAge`` (never in an explicit ``SyncEngine/syncNow(reason:)``).
    public var notDue: [String] = []
    /// Definitions whose pull failed for good (say, a filter the server refuses), with the error.
    public var failedPulls: [(table: String, error: String)] = []

    /// The outcome and counts in one line.
    public var description: String {
        let pulled = pulls.reduce(0) { $0 + $1.summary.received }
        return "cycle (\(reason)): \(outcome), \(pushedOperations) pushed, \(failedOperations) failed, "
            + "\(pulls.count) pulls (\(pulled) records)" + (failedPulls.isEmpty ? "" : ", \(failedPulls.count) failed")
    }
}
