import Foundation
import SyncTables
@_spi(SyncTablesTools) import SyncTablesCore

/// The token buckets of a ``RateLimit``, one per caller key, on the server's clock.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: Date
    }

    let limit: RateLimit
    private let clock: any SyncClock
    private let buckets = LockedState([String: Bucket]())

    /// Buckets kept before the full ones (callers quiet long enough) are dropped.
    static let pruneThreshold = 10_000

    init(limit: RateLimit, clock: any SyncClock) {
        self.limit = limit
        self.clock = clock
    }

    /// Takes one request from `key`'s bucket; `nil` when allowed, else how long until one would be.
    func take(for key: String) -> Duration? {
        let now = clock.now()
        let rate = limit.requestsPerSecond
        let capacity = Double(limit.burst)
        return buckets.withLock { buckets in
            if buckets.count >= Self.pruneThreshold, buckets[key] == nil {
                buckets = buckets.filter {
                    min(capacity, $0.value.tokens + now.timeIntervalSince($0.value.updated) * rate) < capacity
                }
            }
            var bucket = buckets[key] ?? Bucket(tokens: capacity, updated: now)
            bucket.tokens = min(capacity, bucket.tokens + max(0, now.timeIntervalSince(bucket.updated)) * rate)
            bucket.updated = now
            defer { buckets[key] = bucket }
            guard bucket.tokens >= 1 else {
                let wait = rate > 0 ? (1 - bucket.tokens) / rate : 3600
                return .milliseconds(Int64((wait * 1000).rounded(.up)))
            }
            bucket.tokens -= 1
            return nil
        }
    }
}
