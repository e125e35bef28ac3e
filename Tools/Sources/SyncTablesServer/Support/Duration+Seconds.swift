import Foundation

extension Duration {
    /// The duration in seconds, as the `Date` arithmetic of the server's clock needs it.
    var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded down (the instants of idempotency records).
    var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
