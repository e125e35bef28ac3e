import CoreMetrics
import Foundation
import Logging
@_spi(SyncTablesTools) import SyncTablesCore

/// What the outside sees of an engine: its state and status (now and as streams), its cycle reports, the
/// log lines of state changes, and the queue gauges.
///
/// The engine tells it what happened; it decides what observers hear. Its streams are read from any thread,
/// so it is `Sendable` and keeps its few mutable values behind a lock.
final class SyncEngineReporter: Sendable {
    let logger: Logger
    let metrics: SyncEngineMetrics
    private let stateBroadcaster = Broadcaster<SyncEngineState>(current: .idle)
    private let statusBroadcaster = Broadcaster(
        current: SyncEngineStatus(state: .idle, pendingOperations: 0, deadOperations: 0))
    private let reportBroadcaster = Broadcaster<SyncCycleReport>(bufferLimit: 64)
    private let progress = LockedState(Progress())

    /// What the status adds to the state.
    private struct Progress {
        var queue = QueueStatistics()
        var lastSuccessfulPush: Date?
        var lastSuccessfulPull: Date?
        var changeFeed = ChangeFeedStatus.off
    }

    init(logger: Logger, metricsFactory: any MetricsFactory) {
        self.logger = logger
        self.metrics = SyncEngineMetrics(factory: metricsFactory)
    }

    var state: SyncEngineState { stateBroadcaster.value }
    var states: AsyncStream<SyncEngineState> { stateBroadcaster.subscribe() }
    var status: SyncEngineStatus { statusBroadcaster.value }
    var statuses: AsyncStream<SyncEngineStatus> { statusBroadcaster.subscribe() }
    var cycleReports: AsyncStream<SyncCycleReport> { reportBroadcaster.subscribe() }

    /// The dead operations the latest statistics counted.
    var deadOperations: Int { progress.withLock { $0.queue.deadOperations } }

    /// Shows `shown` as the engine's state. Routine moves (idle and syncing, a stop of an engine that never
    /// ran) are logged at debug, the others (backoff, pause, offline, blocked, a stop, a recovery) at info.
    func show(_ shown: SyncEngineState, engineHasRun: Bool) {
        let old = stateBroadcaster.value
        guard old != shown else { return }
        stateBroadcaster.send(shown)
        publishStatus()
        let routine = old.isRoutine && shown.isRoutine || (shown == .stopped && !engineHasRun)
        logger.log(
            level: routine ? .debug : .info, "sync engine state: \(shown)", metadata: ["previous": "\(old)"])
    }

    /// The queue's statistics, read in full (after a cycle or a change of dead operations).
    func record(_ statistics: QueueStatistics, at now: Date) {
        progress.withLock { $0.queue = statistics }
        metrics.record(statistics, at: now)
        publishStatus()
    }

    /// The queue's size and oldest operation after a local write (the dead count is kept).
    func recordQueueSize(_ size: QueueStatistics, at now: Date) {
        let statistics = progress.withLock { progress in
            progress.queue.operations = size.operations
            progress.queue.oldestCreatedAt = size.oldestCreatedAt
            return progress.queue
        }
        metrics.record(statistics, at: now)
        publishStatus()
    }

    /// A push that reached the server ended at `time`.
    func pushSucceeded(at time: Date) {
        progress.withLock { $0.lastSuccessfulPush = time }
    }

    /// Every definition of a cycle pulled without failure; it ended at `time`.
    func pullSucceeded(at time: Date) {
        progress.withLock { $0.lastSuccessfulPull = time }
    }

    /// The change feed's connection is now as `status` says.
    func changeFeedChanged(_ status: ChangeFeedStatus) {
        let changed = progress.withLock { progress in
            defer { progress.changeFeed = status }
            return progress.changeFeed != status
        }
        guard changed else { return }
        logger.debug("change feed: \(status)")
        publishStatus()
    }

    /// A cycle ended.
    func publish(_ report: SyncCycleReport) {
        reportBroadcaster.publish(report)
    }

    private func publishStatus() {
        let progress = progress.withLock { $0 }
        statusBroadcaster.send(
            SyncEngineStatus(
                state: state, pendingOperations: progress.queue.operations,
                deadOperations: progress.queue.deadOperations,
                oldestPendingOperationDate: progress.queue.oldestCreatedAt,
                lastSuccessfulPush: progress.lastSuccessfulPush, lastSuccessfulPull: progress.lastSuccessfulPull,
                changeFeed: progress.changeFeed))
    }
}
