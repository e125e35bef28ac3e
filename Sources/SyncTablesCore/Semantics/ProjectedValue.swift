/// The scalar a store filters and orders by: what one top-level JSON value becomes in a projected column.
///
/// Both stores evaluate filters over these values so they agree exactly: `null`, numbers (booleans are
/// `0`/`1`), text (objects and arrays as canonical JSON text), and dates in date properties as 100 ns ticks.
@_spi(SyncTablesTools) public enum ProjectedValue: Sendable {
    /// No value: an absent property, JSON `null` or NaN.
    case null
    /// An integer: JSON integers, and booleans as `0` and `1`, and dates in date properties as 100 ns ticks.
    case integer(Int64)
    /// A number with a fraction or beyond `Int64`.
    case real(Double)
    /// Text: strings, and objects and arrays as canonical JSON text.
    case text(String)

    /// SQLite's storage-class rank: NULL < numbers < text.
    private var rank: Int {
        switch self {
        case .null: 0
        case .integer, .real: 1
        case .text: 2
        }
    }

    /// Orders two values as SQLite's `ORDER BY` does: NULL first, numbers numerically, text by UTF-8 bytes.
    package static func order(_ lhs: ProjectedValue, _ rhs: ProjectedValue) -> Int {
        switch (lhs, rhs) {
        case (.null, .null): return 0
        case (.integer(let a), .integer(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.real(let a), .real(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.integer(let a), .real(let b)): return compare(integer: a, real: b)
        case (.real(let a), .integer(let b)): return -compare(integer: b, real: a)
        case (.text(let a), .text(let b)): return compareUTF8(a, b)
        default: return lhs.rank < rhs.rank ? -1 : 1
        }
    }

    /// SQL `IS`: equal storage-class-wise values, `NULL IS NULL` included.
    package static func isSame(_ lhs: ProjectedValue, _ rhs: ProjectedValue) -> Bool {
        order(lhs, rhs) == 0
    }

    /// `true` for ``null``.
    package var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Exact integer/real comparison, as SQLite 3.40 does (no rounding of large integers).
    private static func compare(integer: Int64, real: Double) -> Int {
        if real < -9_223_372_036_854_775_808.0 { return 1 }
        if real >= 9_223_372_036_854_775_808.0 { return -1 }
        let truncated = Int64(real)
        if integer < truncated { return -1 }
        if integer > truncated { return 1 }
        let fraction = real - Double(truncated)
        return fraction > 0 ? -1 : (fraction < 0 ? 1 : 0)
    }

    /// Byte-wise comparison of UTF-8, SQLite's BINARY collation (not Swift's Unicode-aware `<`).
    package static func compareUTF8(_ lhs: String, _ rhs: String) -> Int {
        var left = lhs.utf8.makeIterator()
        var right = rhs.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let a?, let b?): if a != b { return a < b ? -1 : 1 }
            }
        }
    }
}
