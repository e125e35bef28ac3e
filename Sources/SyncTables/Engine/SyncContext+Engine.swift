import Foundation

// What the engine needs from the context: a push that respects backoff and dead-letters, pulls without the
// implicit push, the persisted cycle backoff and a probe request.

extension SyncContext {
    /// The engine's push: the whole queue, passing over dead operations and those waiting out a backoff.
    func pushForEngine(delivery: DeliveryPolicy) async throws -> PushSummary {
        try await withSyncAction { try await pushQueue(tables: nil, delivery: delivery) }
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

    /// The engine's persisted cycle backoff: failed cycles in a row and when the next may run.
    func engineBackoff() async throws -> (failures: Int, until: Date)? {
        let text = try await SyncError.mapping {
            try await store.write { try SystemConfig.value(for: SystemConfig.engineBackoffKey, in: $0) }
        }
        guard let text, let separator = text.firstIndex(of: "|"), let failures = Int(text[..<separator]),
            let until = try? Timestamp(iso8601: String(text[text.index(after: separator)...]))
        else { return nil }
        return (failures, until.date)
    }

    /// Stores (or with `nil`, clears) the engine's cycle backoff.
    func setEngineBackoff(_ backoff: (failures: Int, until: Date)?) async throws {
        try await SyncError.mapping {
            try await store.write { transaction in
                if let backoff {
                    let text = "\(backoff.failures)|\(Timestamp(date: backoff.until).iso8601)"
                    try SystemConfig.setValue(text, for: SystemConfig.engineBackoffKey, in: transaction)
                } else {
                    try SystemConfig.removeValue(for: SystemConfig.engineBackoffKey, in: transaction)
                }
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
