import Foundation
import Logging
import SyncTables

/// Removes what expired, lazily and in bounded steps: when a request calls ``sweepIfDue()``, at most once per
/// ``interval``, it removes up to `stepLimit` items; a step that found that many goes again on the next call,
/// so removal keeps up with what is added. Nothing runs on a timer, and an idle server does no work. Items that
/// wait for their removal must already count as expired where they are read.
actor BoundedSweeper {
    /// The least time between two steps, unless the last one was full.
    static let interval: Duration = .seconds(60)

    /// The most items one step removes.
    nonisolated let stepLimit: Int
    /// What it removes, for its log line (e.g. `expired idempotency records`).
    private let items: String
    private let clock: any SyncClock
    private let logger: Logger
    /// Removes up to `limit` items that expired by `now`; returns how many it removed.
    private let remove: @Sendable (_ now: Date, _ limit: Int) async throws -> Int
    private var nextStep = Date.distantPast
    private var isRemoving = false

    init(
        removing items: String, stepLimit: Int, clock: any SyncClock, logger: Logger,
        remove: @escaping @Sendable (_ now: Date, _ limit: Int) async throws -> Int
    ) {
        self.items = items
        self.stepLimit = stepLimit
        self.clock = clock
        self.logger = logger
        self.remove = remove
    }

    /// Takes a step when one is due; returns how many items it removed.
    @discardableResult
    func sweepIfDue() async -> Int {
        let now = clock.now()
        guard !isRemoving, now >= nextStep else { return 0 }
        isRemoving = true
        defer { isRemoving = false }
        do {
            let removed = try await remove(now, stepLimit)
            nextStep = removed == stepLimit ? now : now.addingTimeInterval(Self.interval.seconds)
            return removed
        } catch {
            // The items stay (and stay expired) until a later step; the request that called is not affected.
            nextStep = now.addingTimeInterval(Self.interval.seconds)
            logger.warning("Removing \(items) failed: \(String(describing: error))")
            return 0
        }
    }
}
