import Foundation

// What the engine needs from the context: its one-action gate for the engine's own push, the persisted
// cycle backoff and a probe request.

extension SyncContext {
    /// Runs `action` (the engine's push) as the context's one sync action.
    func perform<Result: Sendable>(_ action: @Sendable () async throws -> Result) async throws -> Result {
        try await withSyncAction(action)
    }

    /// The earliest retry time of the operations waiting out a backoff, if any waits; a time already past
    /// is returned too (a retry that fell due while a cycle ran is due now, not forgotten).
    func earliestRetryTime() async throws -> Date? {
        try await SyncError.mapping {
            try await store.write { transaction -> Date? in
                let records = try RetryRecord.all(in: transaction)
                guard !records.isEmpty else { return nil }
                var earliest: Date?
                for operation in try transaction.queuedOperations(.all) where operation.state == .failed {
                    guard let record = records[operation.id], record.operationVersion == operation.version,
                        let next = record.nextAttemptAt?.date
                    else { continue }
                    earliest = min(earliest ?? next, next)
                }
                return earliest
            }
        }
    }

    /// The engine's persisted cycle backoff, if a failed cycle left one.
    func engineBackoff() async throws -> EngineBackoff? {
        try await SyncError.mapping { try await store.write { try EngineBackoff.stored(in: $0) } }
    }

    /// Stores (or with `nil`, clears) the engine's cycle backoff.
    func setEngineBackoff(_ backoff: EngineBackoff?) async throws {
        try await SyncError.mapping {
            try await store.write { transaction in
                if let backoff { try backoff.save(in: transaction) } else { try EngineBackoff.remove(in: transaction) }
            }
        }
    }

    /// The circuit breaker's probe: one small read of `table` that must succeed.
    func probe(table: String) async throws {
        let client = try requireClient()
        _ = try await client.query(table: table, queryString: "$top=1")
    }
}

/// The queue at a glance, for the engine's status and gauges.
struct QueueStatistics: Sendable, Hashable {
    /// Queued operations, dead ones included.
    var operations = 0
    /// Dead-lettered operations.
    var deadOperations = 0
    /// When the oldest queued operation was created.
    var oldestCreatedAt: Date?
}

extension SyncContext {
    /// The number of queued operations and when the first in queue order was created.
    func queueSize() async throws -> QueueStatistics {
        var size = QueueStatistics()
        size.operations = try await queue.count()
        size.oldestCreatedAt = try await queue.next()?.createdAt.date
        return size
    }

    /// Counts the queue's operations and finds the oldest.
    func queueStatistics() async throws -> QueueStatistics {
        try await SyncError.mapping {
            try await store.write { transaction in
                var statistics = QueueStatistics()
                for operation in try transaction.queuedOperations(.all) {
                    statistics.operations += 1
                    if operation.state == .dead { statistics.deadOperations += 1 }
                    let created = operation.createdAt.date
                    statistics.oldestCreatedAt = min(statistics.oldestCreatedAt ?? created, created)
                }
                return statistics
            }
        }
    }
}
