import Foundation

extension Duration {
    /// The duration in seconds, as the `Date` arithmetic of the server's clock needs it.
    var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
