/// How the ``SyncEngine`` retries, when it stops trying for a while, and how often it may sync by itself.
public struct SyncEngineConfiguration: Sendable, Hashable {
    /// Backoff and dead-letter limit, for operations and for failed cycles alike.
    public var retry: RetryPolicy
    /// Failed cycles in a row (transient failures) that open the circuit breaker.
    public var breakerThreshold: Int
    /// How long the open breaker keeps every request from the server before a probe.
    public var breakerCooldown: Duration
    /// The least time between the starts of two cycles the engine starts by itself (triggers that fire
    /// meanwhile wait for it); explicit ``SyncEngine/syncNow(reason:)`` calls do not wait.
    public var minimumCycleInterval: Duration
    /// How long after a change the server announced its definitions are pulled: the changes announced
    /// meanwhile are pulled by the same cycle.
    public var serverChangeDebounce: Duration

    /// A configuration; the defaults open the breaker after 5 failed cycles for 60 seconds, let cycles
    /// follow each other without a minimum interval, and pull as soon as the server announces a change (one
    /// cycle runs at a time, so the changes announced while it runs are pulled by one more cycle).
    ///
    /// The change feed's connection follows the same policies: a failed connection is tried again after the
    /// `retry` backoff, and after `breakerThreshold` failures in a row only after `breakerCooldown`.
    public init(
        retry: RetryPolicy = RetryPolicy(), breakerThreshold: Int = 5, breakerCooldown: Duration = .seconds(60),
        minimumCycleInterval: Duration = .zero, serverChangeDebounce: Duration = .zero
    ) {
        self.retry = retry
        self.breakerThreshold = max(1, breakerThreshold)
        self.breakerCooldown = breakerCooldown
        self.minimumCycleInterval = max(.zero, minimumCycleInterval)
        self.serverChangeDebounce = max(.zero, serverChangeDebounce)
    }
}
