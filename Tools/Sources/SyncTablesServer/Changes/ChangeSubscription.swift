/// One open change feed's place at its hub: where it started, and the changes the hub queued for it since.
///
/// The feed's writer reads it with ``next()`` and calls ``cancel()`` when the feed ends; the hub ends it
/// by itself when the feed falls behind, when the test controls drop every feed, and when the server drains.
struct ChangeSubscription: Sendable {
    let hub: ChangeHub
    /// The feed's id at its hub.
    let id: Int
    /// Where the feed starts: the `ready` position, and what comes right after it.
    let start: Start

    /// Where a feed starts.
    struct Start: Sendable {
        /// The hub's position when the feed opened: the `ready` event's id.
        let position: ChangePosition
        /// What follows `ready`.
        let resumption: Resumption
    }

    /// What follows a feed's `ready` event.
    enum Resumption: Sendable, Equatable {
        /// Nothing: no `Last-Event-ID`, or nothing changed since it that the caller may see.
        case none
        /// The retained changes after the `Last-Event-ID` that the caller may see, oldest first.
        case replay([ChangeRecord])
        /// A `reset`: the hub cannot say what changed since the `Last-Event-ID`, for this reason.
        case reset(String)
    }

    /// Something the hub queued for a feed.
    enum Item: Sendable, Equatable {
        /// A change the caller may see.
        case change(ChangeRecord)
        /// The hub may have missed changes (its PostgreSQL listener reconnected) at this position.
        case reset(ChangePosition, reason: String)
    }

    /// What waiting for the next items gave.
    enum Delivery: Sendable, Equatable {
        /// Items, oldest first.
        case items([Item])
        /// Nothing yet: the wait was cancelled (the heartbeat is due).
        case interrupted
        /// The feed ended: the hub dropped it, or it was cancelled.
        case ended
    }

    /// Waits for the items queued for the feed and takes them all; ``Delivery/interrupted`` when the task is
    /// cancelled first.
    func next() async -> Delivery {
        await hub.next(feed: id)
    }

    /// Ends the feed at the hub (idempotent).
    func cancel() {
        hub.cancel(feed: id)
    }
}
