import Foundation
import SyncTables

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
final class WriteStampIssuer: @unchecked Sendable {
    // Guarded by `lock`; `WriteStampIssuer` is called from inside synchronous store transactions.
    private let lock = NSLock()
    private var lastVersion: UInt64
    private var lastMilliseconds: Int64 = 0

    init() {
        lastVersion = UInt64(max(0, Date().timeIntervalSince1970 * 10_000_000))
    }

    /// The next stamp.
    func next() -> WriteStamp {
        let nowMilliseconds = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        lock.lock()
        lastVersion += 1
        lastMilliseconds = max(nowMilliseconds, lastMilliseconds + 1)
        let version = lastVersion
        let milliseconds = lastMilliseconds
        lock.unlock()
        return WriteStamp(version: String(version, radix: 16), timestamp: Self.iso8601(milliseconds: milliseconds))
    }

    /// Formats milliseconds since the epoch as `yyyy-MM-ddTHH:mm:ss.SSSZ`.
    ///
    /// The fraction is written from the integer milliseconds: going through a `Double` date could round two
    /// different milliseconds to the same text.
    static func iso8601(milliseconds: Int64) -> String {
        let (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let wholeSeconds = fraction < 0 ? seconds - 1 : seconds
        let millisecondsPart = fraction < 0 ? fraction + 1000 : fraction
        let date = Date(timeIntervalSince1970: Double(wholeSeconds))
        let text = date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
        let digits = String(millisecondsPart)
        return String(text.dropLast()) + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }
}
