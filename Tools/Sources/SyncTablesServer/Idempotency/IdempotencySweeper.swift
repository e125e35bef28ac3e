import Foundation
import Logging
import SyncTables

/// Removes expired records of keyed writes, lazily and in bounded steps: after a keyed write, at most once per
/// ``interval``, it removes up to ``stepLimit`` expired records; a step that found that many goes again after
/// the next keyed write, so removal keeps up with recording. Nothing runs on a timer, and an idle server does no
/// work. Expired records that wait for their removal neither replay nor keep their key from being used again.
actor IdempotencySweeper {
    /// The most records one step removes.
    static let stepLimit = 1000
    /// The least time between two steps, unless the last one was full.
    static let interval: Duration = .seconds(60)

    private let storage: any IdempotencyStorage
    private let retention: Duration
    private let clock: any SyncClock
    private let logger: Logger
    private var nextStep = Date.distantPast
    private var isRemoving = false

    init(storage: any IdempotencyStorage, retention: Duration, clock: any SyncClock, logger: Logger) {
        self.storage = storage
        self.retention = retention
        self.clock = clock
        self.logger = logger
    }

    /// Takes a step when one is due; returns how many records it removed.
    @discardableResult
    func sweepIfDue() async -> Int {
        let now = clock.now()
        guard !isRemoving, now >= nextStep else { return 0 }
        isRemoving = true
        defer { isRemoving = false }
        let cutoff = now.millisecondsSince1970 - retention.milliseconds
        do {
            let removed = try await storage.removeIdempotencyRecords(expiredBefore: cutoff, limit: Self.stepLimit)
            nextStep = removed == Self.stepLimit ? now : now.addingTimeInterval(Self.interval.seconds)
            return removed
        } catch {
            // The records stay (and stay expired) until a later step; the write that called is not affected.
            nextStep = now.addingTimeInterval(Self.interval.seconds)
            logger.warning("Removing expired idempotency records failed: \(String(describing: error))")
            return 0
        }
    }
}
