/// How the ``SyncEngine`` retries and when it stops trying for a while.
public struct SyncEngineConfiguration: Sendable, Hashable {
    /// Backoff and dead-letter limit, for operations and for failed cycles alike.
    public var retry: RetryPolicy
    /// Failed cycles in a row (transient failures) that open the circuit breaker.
    public var breakerThreshold: Int
    /// How long the open breaker keeps every request from the server before a probe.
    public var breakerCooldown: Duration

    /// A configuration; the defaults open the breaker after 5 failed cycles for 60 seconds.
    public init(retry: RetryPolicy = RetryPolicy(), breakerThreshold: Int = 5, breakerCooldown: Duration = .seconds(60))
    {
        self.retry = retry
        self.breakerThreshold = max(1, breakerThreshold)
        self.breakerCooldown = breakerCooldown
    }
}
