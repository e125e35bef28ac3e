/// An instant in UTC with 100-nanosecond precision: the resolution of the protocol's dates.
///
/// Foundation's `Date` is a `Double` and cannot hold every 7-digit fraction exactly, and incremental
/// pull must store the server's `updatedAt` at full precision, so sync state uses `Timestamp`.
///
/// ```swift
/// let t = try Timestamp(iso8601: "2001-02-03T00:00:00.0000001+00:00")
/// t.iso8601  // "2001-02-03T00:00:00.0000001Z"
/// ```
public struct Timestamp: Sendable, Hashable, Comparable {
    /// Ticks of 100 nanoseconds since 1970-01-01T00:00:00Z (negative before it).
    public var ticks: Int64

    /// Creates a timestamp from 100-nanosecond ticks since the Unix epoch.
    public init(ticks: Int64) {
        self.ticks = ticks
    }

    /// The Unix epoch, the starting point of every incremental pull.
    public static let epoch = Timestamp(ticks: 0)

    /// Orders timestamps chronologically.
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.ticks < rhs.ticks }
}
