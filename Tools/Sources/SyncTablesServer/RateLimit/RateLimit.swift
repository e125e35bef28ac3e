/// How many requests one caller may send to a ``SyncServer``: a token bucket per caller, refilled at
/// ``requestsPerSecond`` and holding at most ``burst`` requests.
///
/// A caller is the token's subject (``Caller/subject``); a request without one (no authentication, the static
/// token, or credentials that prove nothing) counts against its client address. A request beyond the limit is
/// answered 429 with `Retry-After` (whole seconds) and nothing else happens. A `POST /sync/batch` counts as
/// one request, whatever it carries (``SyncServerConfiguration/maxBatchOperations`` bounds that). Probes
/// (`/health`, `/ready`) and `/metrics` are never limited.
///
/// The buckets live in the server's memory: each instance of several behind a load balancer limits on its
/// own, so a caller spread over `n` instances may send up to `n` times the limit.
///
/// ```swift
/// configuration.rateLimit = RateLimit(requestsPerSecond: 20, burst: 40)
/// ```
public struct RateLimit: Sendable, Hashable {
    /// The sustained rate each caller may send, in requests per second.
    public var requestsPerSecond: Double
    /// The most requests a caller may send at once after a quiet period.
    public var burst: Int

    /// Creates a limit of `requestsPerSecond`, with bursts of `burst` requests (at least one).
    public init(requestsPerSecond: Double, burst: Int) {
        self.requestsPerSecond = requestsPerSecond
        self.burst = max(1, burst)
    }
}
