import Foundation
import Logging
@_spi(SyncTablesTools) import SyncTablesCore

/// Keeps one connection to the server's change feed while it runs, and tells the engine what it hears: a
/// change of a table, or that it must catch up on every table (its first connection, or the server could not
/// say what changed since the last position it heard).
///
/// It reconnects by itself, from the last position, so changes made while it was away are announced when it
/// is back (or a catch-up when the server no longer knows that position). A connection that fails waits out
/// the engine's backoff; after ``SyncEngineConfiguration/breakerThreshold`` failures in a row it rests for
/// the breaker's cooldown, the intervals syncing meanwhile. A connection silent for two heartbeats is taken
/// for dead and replaced.
final class ServerChangeWatcher: Sendable {
    /// What the engine does on what the watcher heard.
    enum Reaction: Sendable {
        /// A change of a table the engine syncs.
        case changed(table: String)
        /// Every table may have changed since the engine last heard: pull them all (incrementally).
        case catchUp
    }

    private let client: SyncClient
    /// The tables whose changes matter, as the definitions name them (the feed is asked for these).
    private let tables: Set<String>
    /// The same, lower-cased: table names compare without case.
    private let matchedTables: Set<String>
    private let configuration: SyncEngineConfiguration
    private let clock: any SyncClock
    private let unitRandom: @Sendable () -> Double
    private let logger: Logger
    private let show: @Sendable (ChangeFeedStatus) -> Void
    private let react: @Sendable (Reaction) async -> Void
    /// Whether it still runs: a status computed while it was being stopped is not shown.
    private let running = LockedState(true)
    private let task = LockedState<Task<Void, Never>?>(nil)

    init(
        client: SyncClient, tables: Set<String>, configuration: SyncEngineConfiguration, clock: any SyncClock,
        unitRandom: @escaping @Sendable () -> Double, logger: Logger,
        show: @escaping @Sendable (ChangeFeedStatus) -> Void, react: @escaping @Sendable (Reaction) async -> Void
    ) {
        self.client = client
        self.tables = tables
        self.matchedTables = Set(tables.map { $0.lowercased() })
        self.configuration = configuration
        self.clock = clock
        self.unitRandom = unitRandom
        self.logger = logger
        self.show = show
        self.react = react
    }

    /// Starts watching.
    func start() {
        let watching = Task { await self.watch() }
        task.withLock { $0 = watching }
    }

    /// Stops watching: the connection closes; no status is shown from now on.
    func stop() {
        running.withLock { $0 = false }
        task.withLock { $0 }?.cancel()
    }

    /// Shows `status` unless the watcher was stopped.
    private func publish(_ status: ChangeFeedStatus) {
        running.withLock { running in
            if running { show(status) }
        }
    }

    /// Where the watcher stands between connections.
    private struct Progress {
        /// The last position the server named: a reconnection asks for what came after it.
        var position: String?
        /// Connections in a row that failed, or ended without the feed going live.
        var failures = 0
    }

    private func watch() async {
        let progress = LockedState(Progress())
        while !Task.isCancelled {
            publish(.connecting)
            var retryAfter: Duration?
            do {
                let position = progress.withLock { $0.position }
                guard let feed = try await client.changeFeed(tables: tables, after: position) else {
                    publish(.unavailable)
                    logger.info("the server offers no change feed: definitions sync by their schedules")
                    return
                }
                let silence = feed.heartbeat * 2 + .seconds(5)
                try await follow(feed, silence: silence) { event in
                    await self.handle(event, progress: progress)
                }
                // The server ended it (a restart, a drop): soon again, unless it keeps doing so.
                progress.withLock { $0.failures += 1 }
            } catch {
                if Task.isCancelled { return }
                // A 401 also meets the engine's own requests, which block it and so stop the watcher.
                retryAfter = (error as? HTTPStatusError)?.retryAfter
                progress.withLock { $0.failures += 1 }
                logger.debug("change feed connection failed", metadata: ["error": "\(error)"])
            }
            if Task.isCancelled { return }
            let failures = progress.withLock { $0.failures }
            let delay: Duration
            if failures >= configuration.breakerThreshold {
                delay = max(configuration.breakerCooldown, retryAfter ?? .zero)
            } else {
                delay = retryAfter ?? configuration.retry.delay(afterFailures: failures, unit: unitRandom())
            }
            let until = clock.now().addingTimeInterval(delay.timeInterval)
            publish(.retrying(until: until))
            try? await clock.sleep(until: until)
        }
    }

    /// Follows one event: positions move on, changes of the watched tables and catch-ups go to the engine.
    private func handle(_ event: ChangeFeedEvent, progress: LockedState<Progress>) async {
        switch event {
        case .ready(let current):
            // A reconnection keeps the position it resumed from: the changes it missed come after `ready`,
            // and a cut before they arrive must ask for them again.
            let first = progress.withLock { progress in
                defer { (progress.position, progress.failures) = (progress.position ?? current, 0) }
                return progress.position == nil
            }
            // The first connection cannot know what changed before it: one catch-up covers that.
            if first { await react(.catchUp) }
            publish(.live)
        case .changed(let table, let current):
            progress.withLock { $0.position = current ?? $0.position }
            if matchedTables.contains(table.lowercased()) { await react(.changed(table: table)) }
        case .reset(let current):
            progress.withLock { $0.position = current ?? $0.position }
            await react(.catchUp)
        case .heartbeat:
            break
        }
    }

    /// Hands every event of `feed` to `handle` until the feed ends; throws when it fails or stays silent
    /// (no event, not even a heartbeat) for `silence`.
    private func follow(
        _ feed: ChangeFeed, silence: Duration, handle: @escaping @Sendable (ChangeFeedEvent) async -> Void
    ) async throws {
        let lastHeard = LockedState(clock.now())
        let clock = clock
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for try await event in feed {
                    lastHeard.withLock { $0 = clock.now() }
                    await handle(event)
                }
            }
            group.addTask {
                while true {
                    let deadline = lastHeard.withLock { $0 }.addingTimeInterval(silence.timeInterval)
                    try await clock.sleep(until: deadline)
                    if lastHeard.withLock({ $0 }).addingTimeInterval(silence.timeInterval) <= clock.now() {
                        throw ChangeFeedSilence()
                    }
                }
            }
            // Whichever ends first ends both: the feed (closed or failed) or the watchdog (silence).
            defer { group.cancelAll() }
            try await group.next()
        }
    }
}

/// A change feed connection heard nothing, not even a heartbeat, for two heartbeat intervals.
struct ChangeFeedSilence: Error, CustomStringConvertible {
    var description: String { "the change feed was silent for two heartbeats" }
}
