import Foundation
import Logging
import SyncTables

/// The current keys of a ``JWTVerification``, reloaded from their source when a token names an unknown key
/// id (rate-limited) or when they are older than the refresh interval. A failed reload keeps the keys it had.
actor JWTKeyStore {
    private let source: JWTVerification.KeySource
    private let minimumReloadInterval: TimeInterval
    private let refreshInterval: TimeInterval
    private let clock: any SyncClock
    private let logger: Logger

    private var current: JSONWebKeySet
    private var loadedAt: Date
    private var lastAttempt: Date
    private var reloading: Task<Void, Never>?

    /// Reads the keys once; throws when they cannot be read, so a misconfigured server does not start.
    init(verification: JWTVerification, clock: any SyncClock, logger: Logger) async throws {
        source = verification.keys
        minimumReloadInterval = verification.minimumReloadInterval.seconds
        refreshInterval = verification.refreshInterval.seconds
        self.clock = clock
        self.logger = logger
        current = try await Self.load(source, logger: logger)
        loadedAt = clock.now()
        lastAttempt = loadedAt
    }

    /// The keys to verify a token whose header names `kid`, after a reload when `kid` is unknown or the keys are
    /// due for a refresh, and the last reload is long enough ago.
    func keys(for kid: String?) async -> JSONWebKeySet {
        let now = clock.now()
        let mayReload = now.timeIntervalSince(lastAttempt) >= minimumReloadInterval
        let unknown = kid != nil && current.key(for: kid) == nil
        let stale = now.timeIntervalSince(loadedAt) >= refreshInterval
        if ((unknown || stale) && mayReload) || reloading != nil { await reload() }
        return current
    }

    /// One reload at a time: callers arriving meanwhile wait for the same one.
    private func reload() async {
        if let reloading { return await reloading.value }
        lastAttempt = clock.now()
        let task = Task { [source, logger] in
            do {
                let keys = try await Self.load(source, logger: logger)
                self.replace(with: keys)
            } catch {
                logger.warning("Keeping the JSON Web Keys in use: \(error)")
            }
        }
        reloading = task
        await task.value
        reloading = nil
    }

    private func replace(with keys: JSONWebKeySet) {
        current = keys
        loadedAt = clock.now()
        logger.info("Loaded the JSON Web Keys", metadata: ["kids": "\(keys.algorithms.keys.sorted())"])
    }

    private static func load(_ source: JWTVerification.KeySource, logger: Logger) async throws -> JSONWebKeySet {
        let data = try await KeySetFetcher.fetch(source)
        let (keys, skipped) = try await JSONWebKeySet.parse(data)
        for reason in skipped { logger.notice("Skipped a JSON Web Key: \(reason)") }
        return keys
    }
}
