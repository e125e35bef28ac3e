import Foundation

// What an app's operations screen reads: each queued operation's delivery, and the queue's counts now and
// as they change, with or without a running engine.

extension SyncContext {
    /// The queued operations (only those of `table` when it is given) in push order, each with its
    /// failures, next retry time, latest attempts and the parent it waits for.
    ///
    /// - Throws: ``SyncError/corruptSystemTable(table:message:)`` for a damaged system row, and ``SyncError/store(_:)``
    ///   when the store fails.
    public func pendingOperationStatuses(table: String? = nil) async throws -> [PendingOperationStatus] {
        try await SyncError.mapping {
            let tables = try await store.tableDefinitions().map(\.name)
            return try await store.write { transaction in
                let records = try RetryRecord.all(in: transaction)
                let holds = try ParentHolds.load(tables: tables, in: transaction)
                let selection = OperationSelection(tables: table.map { [$0] })
                return try transaction.queuedOperations(selection).map {
                    PendingOperationStatus(
                        operation: $0, record: records[$0.id], parentHold: try holds.hold(of: $0, in: transaction))
                }
            }
        }
    }

    /// The operations waiting to be pushed and the dead-lettered ones.
    ///
    /// - Throws: ``SyncError/corruptSystemTable(table:message:)`` for a damaged system row, and ``SyncError/store(_:)``
    ///   when the store fails.
    public func queueCounts() async throws -> QueueCounts {
        try await queueCounts(knownDead: nil)
    }

    /// The counts; with `knownDead` the dead count is taken as it is instead of read (one pass over the
    /// queue), for a change that cannot have dead-lettered anything.
    private func queueCounts(knownDead: Int?) async throws -> QueueCounts {
        if let knownDead {
            return QueueCounts(pending: try await queue.count() - knownDead, dead: knownDead)
        }
        let statistics = try await queueStatistics()
        return QueueCounts(
            pending: statistics.operations - statistics.deadOperations, dead: statistics.deadOperations)
    }

    /// The queue's counts now, then each time a local write, push, discard, retry, dead-lettering or purge
    /// changes them; an app shows them before (or without) starting a ``SyncEngine``. The stream ends when
    /// the context closes or the consumer stops iterating.
    public nonisolated func queueCountUpdates() -> AsyncStream<QueueCounts> {
        // Subscribed before the first count, so no change between the two is missed.
        let events = eventBroadcaster.subscribe()
        let (stream, continuation) = AsyncStream<QueueCounts>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let task = Task { [weak self] in
            var last = try? await self?.queueCounts()
            if let last { continuation.yield(last) }
            for await event in events where event.mayChangeQueueCounts {
                // Only a push or a dead-lettering adds dead operations; the rest can only remove some.
                let knownDead = event.mayDeadLetter || (last?.dead ?? 1) > 0 ? nil : 0
                guard let context = self, let counts = try? await context.queueCounts(knownDead: knownDead) else {
                    break
                }
                if counts != last { continuation.yield(counts) }
                last = counts
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

extension SyncEvent {
    /// Whether the queue's counts may differ after this event.
    fileprivate var mayChangeQueueCounts: Bool {
        switch self {
        case .itemsInserted, .itemUpdated, .itemDeleted, .operationDiscarded, .operationDeadLettered,
            .deadOperationsRetried, .operationPushed, .pushFinished, .purgeFinished, .storeWiped:
            true
        case .pushStarted, .operationFailed, .pullStarted, .pullPageApplied, .pullFinished, .purgeStarted,
            .attachmentProgress, .attachmentTransferred:
            false
        }
    }

    /// Whether operations may have been dead-lettered.
    fileprivate var mayDeadLetter: Bool {
        switch self {
        case .operationDeadLettered, .pushFinished: true
        default: false
        }
    }
}
