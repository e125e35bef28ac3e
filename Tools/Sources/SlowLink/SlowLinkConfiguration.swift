/// How a ``SlowLinkProxy`` shapes the traffic it forwards: the same in each direction.
///
/// ```swift
/// let link = SlowLinkConfiguration(roundTrip: .milliseconds(50), bitsPerSecond: 20_000_000)
/// ```
public struct SlowLinkConfiguration: Sendable, Hashable {
    /// How long each byte takes to cross the link one way (half the round trip).
    public var oneWayDelay: Duration
    /// The link's capacity in each direction, in bits per second; `nil` for no cap.
    public var bitsPerSecond: Int?

    /// A link with this one-way delay and optional capacity.
    public init(oneWayDelay: Duration, bitsPerSecond: Int? = nil) {
        self.oneWayDelay = oneWayDelay
        self.bitsPerSecond = bitsPerSecond
    }

    /// A link with this round-trip time (half of it each way) and optional capacity.
    public init(roundTrip: Duration, bitsPerSecond: Int? = nil) {
        self.init(oneWayDelay: roundTrip / 2, bitsPerSecond: bitsPerSecond)
    }

    /// How long `byteCount` bytes occupy the link (zero without a cap).
    func transmissionTime(byteCount: Int) -> Duration {
        guard let bitsPerSecond, bitsPerSecond > 0 else { return .zero }
        return .nanoseconds(Int64(byteCount) * 8 * 1_000_000_000 / Int64(bitsPerSecond))
    }
}

extension SlowLinkConfiguration {
    /// Reads a duration such as `50ms`, `0.2s` or `250us` (a bare number is milliseconds).
    public static func duration(parsing text: String) -> Duration? {
        let units: [(String, Double)] = [("ms", 1e6), ("us", 1e3), ("ns", 1), ("s", 1e9)]
        for (suffix, nanoseconds) in units where text.hasSuffix(suffix) {
            guard let value = Double(text.dropLast(suffix.count)), value >= 0 else { return nil }
            return .nanoseconds(Int64(value * nanoseconds))
        }
        guard let value = Double(text), value >= 0 else { return nil }
        return .nanoseconds(Int64(value * 1e6))
    }

    /// Reads a rate such as `20mbit`, `512kbit` or `1gbit` (a bare number is bits per second).
    public static func bitsPerSecond(parsing text: String) -> Int? {
        let lowered = text.lowercased()
        let units: [(String, Double)] = [("gbit", 1e9), ("mbit", 1e6), ("kbit", 1e3), ("bit", 1)]
        for (suffix, factor) in units where lowered.hasSuffix(suffix) {
            guard let value = Double(lowered.dropLast(suffix.count)), value > 0 else { return nil }
            return Int(value * factor)
        }
        guard let value = Int(lowered), value > 0 else { return nil }
        return value
    }
}
