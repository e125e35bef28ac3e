import Foundation
@_spi(SyncTablesTools) import SyncTablesCore

/// The system properties one write stamps on a row: a fresh `version` and the server time.
struct WriteStamp: Sendable {
    /// The new opaque version.
    var version: String
    /// The write time as ISO-8601 UTC with milliseconds.
    var timestamp: String
}

/// Issues write stamps: versions that never repeat and timestamps that strictly increase.
///
/// The version is a hexadecimal counter that starts at the current time in 100 ns ticks, so versions keep
/// growing across restarts on the same database file. Timestamps are the wall clock at millisecond precision,
/// bumped by one millisecond when two writes land in the same millisecond, which keeps incremental pulls from
/// falling back to `$skip` for rows this server wrote.
final class WriteStampIssuer: Sendable {
    // A lock, not an actor: `WriteStampIssuer` is called from inside synchronous store transactions.
    private let last: LockedState<(version: UInt64, milliseconds: Int64)>

    init() {
        last = LockedState((UInt64(max(0, Date().timeIntervalSince1970 * 10_000_000)), 0))
    }

    /// The next stamp.
    func next() -> WriteStamp {
        let nowMilliseconds = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        let (version, milliseconds) = last.withLock { last in
            last.version += 1
            last.milliseconds = max(nowMilliseconds, last.milliseconds + 1)
            return last
        }
        return WriteStamp(version: String(version, radix: 16), timestamp: Self.iso8601(milliseconds: milliseconds))
    }

    /// Formats milliseconds since the epoch as `yyyy-MM-ddTHH:mm:ss.SSSZ`.
    static func iso8601(milliseconds: Int64) -> String {
        Timestamp(ticks: milliseconds * 10_000).iso8601Milliseconds
    }
}
