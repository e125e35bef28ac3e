import Foundation

// What the engine follows of its context's events: local writes (the schedule), discarded and dead
// operations (the status), and a wipe (what it remembers of the old user).

extension SyncEngine {
    /// Reads the queue's statistics into the status and the gauges.
    func refreshQueueStatistics() async {
        guard let statistics = try? await context.queueStatistics() else { return }
        reporter.record(statistics, at: clock.now())
    }

    /// After a local write: the queue's size and oldest operation, two indexed reads however long the
    /// queue (the dead count is refreshed by cycles). Writes that come while it runs share the next read.
    func refreshQueueSize() async {
        guard !refreshingQueueSize else {
            queueSizeChangedMeanwhile = true
            return
        }
        refreshingQueueSize = true
        defer { refreshingQueueSize = false }
        repeat {
            queueSizeChangedMeanwhile = false
            guard let size = try? await context.queueSize() else { return }
            reporter.recordQueueSize(size, at: clock.now())
        } while queueSizeChangedMeanwhile
    }

    /// What the engine follows of the context's events.
    fileprivate enum QueueChange: Sendable {
        /// A local write to `table`, at `date` by the engine's clock when it was committed.
        case localWrite(table: String, at: Date)
        /// An operation left the queue unsent.
        case discarded
        /// The dead count changed.
        case deadOperations
        /// The store was wiped (sign-out): what the engine remembers of the old user goes.
        case storeWiped
    }

    /// Follows the context's local writes while the engine runs (between ``start()`` and ``stop()``), so the
    /// status follows them. An engine only asked to ``syncNow(reason:)`` does not listen: every event would
    /// wake a task.
    ///
    /// A write is dated as it is published (by the engine's clock), not when this task gets to it, so a
    /// debounce counts from the write itself however far behind a burst leaves the task. Events the engine
    /// does not follow (a push's, a pull's) never wake it.
    func listenToEvents() {
        guard eventsTask == nil else { return }
        let changes = context.eventBroadcaster.subscribe { [clock] event -> QueueChange? in
            switch event {
            case .itemsInserted(let table, _), .itemUpdated(let table, _), .itemDeleted(let table, _):
                .localWrite(table: table, at: clock.now())
            case .operationDiscarded: .discarded
            case .deadOperationsRetried, .operationDeadLettered: .deadOperations
            case .storeWiped: .storeWiped
            default: nil
            }
        }
        eventsTask = Task { [weak self] in
            for await change in changes {
                switch change {
                case .localWrite(let table, let date): await self?.localWrite(table: table, at: date)
                case .discarded: await self?.refreshQueueSize()
                case .deadOperations: await self?.refreshQueueStatistics()
                case .storeWiped: await self?.storeWiped()
                }
            }
        }
    }

    /// The context's store was wiped: what the engine remembers of it goes too. Every definition is due
    /// again (its next pull is a full pull), the failed cycles and a backoff or open breaker are forgotten
    /// (the wipe removed the persisted backoff), and the status shows the empty queue. Waiting for new
    /// credentials (``SyncEngineState/blockedAuth``) is kept: that is about the server, not the store.
    func storeWiped() async {
        lastPulled = Array(repeating: nil, count: definitions.count)
        failedCycles = 0
        reconnectProbeAllowed = false
        switch settledState {
        case .backoff, .paused: setState(.idle)
        default: break
        }
        scheduler = SyncScheduler(definitions: definitions, now: clock.now())
        await refreshQueueStatistics()
        wake()
    }
}
