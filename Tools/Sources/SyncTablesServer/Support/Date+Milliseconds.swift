import Foundation

extension Date {
    /// Whole milliseconds since 1970, rounded down: how records of keyed writes are dated.
    var millisecondsSince1970: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded(.down))
    }
}
