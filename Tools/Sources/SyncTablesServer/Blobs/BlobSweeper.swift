import Foundation
import Logging
import SyncTables

/// Removes resumable uploads left unfinished past ``SyncServerConfiguration/blobRetention``, lazily and in
/// bounded steps, as ``IdempotencySweeper`` removes expired keys: after a blob request, at most once per
/// ``interval``, up to ``stepLimit`` uploads; a full step goes again after the next request. An idle server does
/// no work.
actor BlobSweeper {
    /// The most uploads one step removes.
    static let stepLimit = 100
    /// The least time between two steps, unless the last one was full.
    static let interval: Duration = .seconds(60)

    private let storage: any BlobStorage
    private let retention: Duration
    private let clock: any SyncClock
    private let logger: Logger
    private var nextStep = Date.distantPast
    private var isRemoving = false

    init(storage: any BlobStorage, retention: Duration, clock: any SyncClock, logger: Logger) {
        self.storage = storage
        self.retention = retention
        self.clock = clock
        self.logger = logger
    }

    /// Takes a step when one is due; returns how many uploads it removed.
    @discardableResult
    func sweepIfDue() async -> Int {
        let now = clock.now()
        guard !isRemoving, now >= nextStep else { return 0 }
        isRemoving = true
        defer { isRemoving = false }
        let cutoff = now.addingTimeInterval(-retention.seconds)
        do {
            let removed = try await storage.removeUploads(createdBefore: cutoff, limit: Self.stepLimit)
            nextStep = removed == Self.stepLimit ? now : now.addingTimeInterval(Self.interval.seconds)
            return removed
        } catch {
            nextStep = now.addingTimeInterval(Self.interval.seconds)
            logger.warning("Removing expired uploads failed: \(String(describing: error))")
            return 0
        }
    }
}

/// The blob storage and its sweeper, as the server's responder uses them.
struct BlobService: Sendable {
    let storage: any BlobStorage
    let sweeper: BlobSweeper

    init(storage: any BlobStorage, configuration: SyncServerConfiguration) {
        self.storage = storage
        sweeper = BlobSweeper(
            storage: storage, retention: configuration.blobRetention, clock: configuration.clock,
            logger: configuration.logger)
    }
}
