import CoreMetrics
import Foundation

/// The engine's metrics, through swift-metrics (any backend the app bootstraps: Prometheus, StatsD, …).
///
/// | label | kind | what |
/// |---|---|---|
/// | `synctables_operations_pushed_total` | counter | operations the server confirmed |
/// | `synctables_operations_failed_total` | counter | failed operation attempts (retried, dead or conflicts) |
/// | `synctables_operations_dead_lettered_total` | counter | operations moved to the dead state |
/// | `synctables_rows_pulled_total` | counter | records received by pulls |
/// | `synctables_pending_operations` | gauge | operations in the queue (dead ones included) |
/// | `synctables_dead_operations` | gauge | dead-lettered operations |
/// | `synctables_oldest_pending_operation_age_seconds` | gauge | age of the oldest queued operation (0 when empty) |
/// | `synctables_push_duration`, `synctables_pull_duration`, `synctables_cycle_duration` | timers | how long each took |
struct SyncEngineMetrics: Sendable {
    let pushed: Counter
    let failed: Counter
    let deadLettered: Counter
    let rowsPulled: Counter
    let pending: Gauge
    let dead: Gauge
    let oldestPendingAge: Gauge
    let pushDuration: CoreMetrics.Timer
    let pullDuration: CoreMetrics.Timer
    let cycleDuration: CoreMetrics.Timer

    init(factory: any MetricsFactory) {
        pushed = Counter(label: "synctables_operations_pushed_total", factory: factory)
        failed = Counter(label: "synctables_operations_failed_total", factory: factory)
        deadLettered = Counter(label: "synctables_operations_dead_lettered_total", factory: factory)
        rowsPulled = Counter(label: "synctables_rows_pulled_total", factory: factory)
        pending = Gauge(label: "synctables_pending_operations", factory: factory)
        dead = Gauge(label: "synctables_dead_operations", factory: factory)
        oldestPendingAge = Gauge(label: "synctables_oldest_pending_operation_age_seconds", factory: factory)
        pushDuration = CoreMetrics.Timer(label: "synctables_push_duration", factory: factory)
        pullDuration = CoreMetrics.Timer(label: "synctables_pull_duration", factory: factory)
        cycleDuration = CoreMetrics.Timer(label: "synctables_cycle_duration", factory: factory)
    }

    /// Records the queue's state.
    func record(_ queue: QueueStatistics, at now: Date) {
        pending.record(queue.operations)
        dead.record(queue.deadOperations)
        oldestPendingAge.record(queue.oldestCreatedAt.map { max(0, now.timeIntervalSince($0)) } ?? 0)
    }

    /// Runs `body` and records its wall time in `timer`.
    static func measure<Result>(
        _ timer: CoreMetrics.Timer,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async rethrows -> Result {
        let start = ContinuousClock.now
        defer {
            let (seconds, attoseconds) = (ContinuousClock.now - start).components
            timer.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        }
        return try await body()
    }
}
