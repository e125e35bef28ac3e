@_spi(SyncTablesTools) import SyncTablesCore

/// The change feeds of one server process: learns of committed writes, gives each a position, keeps the most
/// recent ones for feeds that resume, and hands each open feed the changes its caller may see.
///
/// Every feed has a bounded queue. A feed whose queue overflows while its writer is busy (a reader that does not
/// read) is dropped: its connection closes, and the client reconnects with its last position and catches up from
/// the history. Nothing is ever buffered without bound, and an idle feed costs a queue and nothing else.
///
/// Positions are `<epoch>:<sequence>` (``ChangePosition``): the epoch is random per hub, and the sequence grows
/// by one per change the hub learns of, and by one per reset.
final class ChangeHub: Sendable {
    /// This hub's random epoch.
    let epoch: String
    /// How often an idle feed sends a heartbeat.
    let heartbeat: Duration
    /// The most feeds open at once.
    let maxFeeds: Int
    /// The most items queued for a feed whose writer is busy before the feed is dropped.
    let queueLimit: Int
    private let metrics: ServerMetrics?
    private let state: LockedState<State>

    /// The default of ``queueLimit``.
    static let defaultQueueLimit = 256

    init(
        heartbeat: Duration, historyLimit: Int, maxFeeds: Int, queueLimit: Int = ChangeHub.defaultQueueLimit,
        metrics: ServerMetrics? = nil
    ) {
        epoch = ChangePosition.randomEpoch()
        self.heartbeat = heartbeat
        self.maxFeeds = maxFeeds
        self.queueLimit = queueLimit
        self.metrics = metrics
        state = LockedState(State(history: ChangeHistory(limit: historyLimit)))
    }

    private struct State {
        var sequence: UInt64 = 0
        var history: ChangeHistory
        /// Positions before this one cannot be resumed from: a reset happened at it.
        var resumableFrom: UInt64 = 0
        var feeds: [Int: Feed] = [:]
        var nextFeedID = 0
        var isShutDown = false
    }

    private struct Feed {
        let audience: ChangeAudience
        /// Closes the feed's connection (the hub ends feeds whose writer may be stuck writing).
        let closeConnection: @Sendable () -> Void
        var queue: [ChangeSubscription.Item] = []
        /// The writer, when it waits for items.
        var waiter: CheckedContinuation<ChangeSubscription.Delivery, Never>?
    }

    /// The current position: the `id` of a feed opening now.
    var position: ChangePosition {
        ChangePosition(epoch: epoch, sequence: state.withLock { $0.sequence })
    }

    // MARK: Changes

    /// Gives each change a position, keeps it in the history, and queues it for every feed whose caller may see
    /// it. Changes published together reach a waiting feed together.
    func publish(_ announcements: [ChangeAnnouncement]) {
        let effects = state.withLock { state in
            for announcement in announcements {
                state.sequence += 1
                let record = ChangeRecord(sequence: state.sequence, announcement: announcement)
                state.history.append(record)
                for (id, feed) in state.feeds where feed.audience.admits(record) {
                    state.feeds[id]?.queue.append(.change(record))
                }
            }
            return Self.deliver(&state, queueLimit: queueLimit)
        }
        finish(effects)
    }

    /// Tells every feed that changes may have been missed (a `reset` at a position of its own), and forgets the
    /// history: no earlier position can be resumed from.
    func reset(reason: String) {
        let effects = state.withLock { state in
            state.sequence += 1
            state.resumableFrom = state.sequence
            state.history.removeAll()
            let position = ChangePosition(epoch: epoch, sequence: state.sequence)
            for id in state.feeds.keys { state.feeds[id]?.queue.append(.reset(position, reason: reason)) }
            return Self.deliver(&state, queueLimit: queueLimit)
        }
        finish(effects)
    }

    // MARK: Feeds

    /// Opens a feed for `audience`, resuming after `lastEventID` when given; `closeConnection` closes its
    /// connection when the hub ends it.
    ///
    /// - Throws: ``ChangeFeedRefusal`` when ``maxFeeds`` feeds are open or the server is draining.
    func subscribe(
        _ audience: ChangeAudience, resumingAfter lastEventID: String?,
        closeConnection: @escaping @Sendable () -> Void
    ) throws(ChangeFeedRefusal) -> ChangeSubscription {
        let (id, start, open) = try state.withLock { state throws(ChangeFeedRefusal) in
            guard !state.isShutDown else { throw .draining }
            guard state.feeds.count < maxFeeds else { throw .tooManyFeeds }
            let id = state.nextFeedID
            state.nextFeedID += 1
            state.feeds[id] = Feed(audience: audience, closeConnection: closeConnection)
            let position = ChangePosition(epoch: epoch, sequence: state.sequence)
            let resumption = lastEventID.map { Self.resumption(after: $0, audience: audience, in: state, epoch: epoch) }
            return (
                id, ChangeSubscription.Start(position: position, resumption: resumption ?? .none), state.feeds.count
            )
        }
        metrics?.recordOpenChangeFeeds(open)
        return ChangeSubscription(hub: self, id: id, start: start)
    }

    /// Ends every feed and closes its connection (the test controls' dropped feeds), and returns how many were
    /// open; new feeds may open at once.
    @discardableResult
    func dropAllFeeds() -> Int {
        let effects = state.withLock { state in
            defer { state.feeds.removeAll() }
            return Effects(
                resume: state.feeds.values.compactMap { $0.waiter.map { ($0, .ended) } },
                close: state.feeds.values.map(\.closeConnection), open: 0)
        }
        finish(effects)
        return effects.close.count
    }

    /// Ends every feed and refuses new ones (the server is draining). A feed waiting for changes finishes its
    /// response; one busy writing has its connection closed, so the drain never waits for a slow reader.
    func shutDown() {
        let effects = state.withLock { state in
            defer { state.feeds.removeAll() }
            state.isShutDown = true
            var effects = Effects(open: 0)
            for feed in state.feeds.values {
                if let waiter = feed.waiter {
                    effects.resume.append((waiter, .ended))
                } else {
                    effects.close.append(feed.closeConnection)
                }
            }
            return effects
        }
        finish(effects)
    }

    /// The feed's queued items; waits for some when there are none. See ``ChangeSubscription/next()``.
    func next(feed id: Int) async -> ChangeSubscription.Delivery {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<ChangeSubscription.Delivery, Never>) in
                let ready = state.withLock { state -> ChangeSubscription.Delivery? in
                    guard var feed = state.feeds[id] else { return .ended }
                    if !feed.queue.isEmpty {
                        defer { state.feeds[id]?.queue = [] }
                        return .items(feed.queue)
                    }
                    if Task.isCancelled { return .interrupted }
                    feed.waiter = waiter
                    state.feeds[id] = feed
                    return nil
                }
                if let ready { waiter.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<ChangeSubscription.Delivery, Never>? in
                defer { state.feeds[id]?.waiter = nil }
                return state.feeds[id]?.waiter
            }
            waiter?.resume(returning: .interrupted)
        }
    }

    /// Ends a feed (its response ended, or its connection closed).
    func cancel(feed id: Int) {
        let (feed, open) = state.withLock { state in (state.feeds.removeValue(forKey: id), state.feeds.count) }
        guard let feed else { return }
        feed.waiter?.resume(returning: .ended)
        metrics?.recordOpenChangeFeeds(open)
    }

    /// What the hub holds now, for tests: open feeds, those waiting for changes, the longest queue, and the
    /// history's length.
    var statistics: Statistics {
        state.withLock { state in
            Statistics(
                openFeeds: state.feeds.count, waitingFeeds: state.feeds.values.filter { $0.waiter != nil }.count,
                longestQueue: state.feeds.values.map(\.queue.count).max() ?? 0, historyCount: state.history.count)
        }
    }

    /// See ``statistics``.
    struct Statistics: Sendable, Hashable {
        var openFeeds: Int
        var waitingFeeds: Int
        var longestQueue: Int
        var historyCount: Int
    }

    // MARK: Helpers

    /// What to do once the lock is released: writers to wake, connections to close.
    private struct Effects {
        var resume: [(CheckedContinuation<ChangeSubscription.Delivery, Never>, ChangeSubscription.Delivery)] = []
        var close: [@Sendable () -> Void] = []
        var dropped = 0
        var open: Int?
    }

    /// Hands the queues of waiting feeds to their writers, and drops the feeds whose busy writer let the queue
    /// grow past `queueLimit`.
    private static func deliver(_ state: inout State, queueLimit: Int) -> Effects {
        var effects = Effects()
        for (id, feed) in state.feeds where !feed.queue.isEmpty {
            if let waiter = feed.waiter {
                effects.resume.append((waiter, .items(feed.queue)))
                state.feeds[id]?.queue = []
                state.feeds[id]?.waiter = nil
            } else if feed.queue.count > queueLimit {
                state.feeds.removeValue(forKey: id)
                effects.close.append(feed.closeConnection)
                effects.dropped += 1
            }
        }
        if effects.dropped > 0 { effects.open = state.feeds.count }
        return effects
    }

    private func finish(_ effects: Effects) {
        for (waiter, delivery) in effects.resume { waiter.resume(returning: delivery) }
        for close in effects.close { close() }
        if effects.dropped > 0 { metrics?.recordDroppedChangeFeeds(effects.dropped) }
        if let open = effects.open { metrics?.recordOpenChangeFeeds(open) }
    }

    /// What follows `ready` for a feed that sent `lastEventID`.
    private static func resumption(
        after lastEventID: String, audience: ChangeAudience, in state: State, epoch: String
    ) -> ChangeSubscription.Resumption {
        guard let position = ChangePosition(lastEventID) else { return .reset("malformed Last-Event-ID") }
        guard position.epoch == epoch, position.sequence <= state.sequence else {
            return .reset("unknown position (the server restarted, or another instance answered)")
        }
        guard position.sequence >= state.resumableFrom else {
            return .reset("changes since then may have been missed")
        }
        guard position.sequence < state.sequence else { return .none }
        // The changes after the position must all be in the history: the next one at least.
        guard let oldest = state.history.oldestSequence, oldest <= position.sequence + 1 else {
            return .reset("position too old")
        }
        return .replay(state.history.records(after: position.sequence, where: audience.admits))
    }
}

/// Why a hub opens no feed.
enum ChangeFeedRefusal: Error, Sendable {
    /// ``ChangeHub/maxFeeds`` feeds are open.
    case tooManyFeeds
    /// The server is draining.
    case draining
}
