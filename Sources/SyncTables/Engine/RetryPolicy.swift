import Foundation

/// How the ``SyncEngine`` retries what failed transiently: exponential backoff with full jitter, and a
/// limit after which an operation is dead-lettered.
///
/// The delay after the n-th consecutive failure is uniformly random in `[0, min(maximumDelay,
/// baseDelay · 2^(n-1))]` ("full jitter"), so many devices that failed together do not return together. A
/// server's `Retry-After` replaces it when present.
///
/// ```swift
/// let policy = RetryPolicy(baseDelay: .seconds(2), maximumDelay: .seconds(600), maxAttempts: 10)
/// ```
public struct RetryPolicy: Sendable, Hashable {
    /// The ceiling of the first delay.
    public var baseDelay: Duration
    /// The largest ceiling any delay gets.
    public var maximumDelay: Duration
    /// Transient failures of one operation before it is dead-lettered.
    public var maxAttempts: Int

    /// A policy; the defaults suit a mobile app (1 s, 5 minutes, 8 attempts).
    public init(baseDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(300), maxAttempts: Int = 8) {
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.maxAttempts = max(1, maxAttempts)
    }

    /// The ceiling of the delay after `failures` consecutive failures (1 or more).
    public func ceiling(afterFailures failures: Int) -> Duration {
        let exponent = min(max(failures, 1) - 1, 62)
        let base = baseDelay.timeInterval
        let ceiling = min(maximumDelay.timeInterval, base * pow(2, Double(exponent)))
        return .seconds(ceiling)
    }

    /// The delay after `failures` consecutive failures, `unit` being a uniform random number in `[0, 1)`.
    public func delay(afterFailures failures: Int, unit: Double) -> Duration {
        .seconds(ceiling(afterFailures: failures).timeInterval * min(max(unit, 0), 1))
    }
}
