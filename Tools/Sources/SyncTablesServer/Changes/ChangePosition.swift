/// Where a change stands in one hub's sequence of changes: the `id` of a change feed's events, and what a client
/// sends back as `Last-Event-ID` to resume after it.
///
/// On the wire it is the opaque text `<epoch>:<sequence>`. The epoch is random per hub (per server process), so a
/// position from an earlier process, or from another instance, is never mistaken for one of this hub's.
struct ChangePosition: Sendable, Hashable, CustomStringConvertible {
    /// The hub's random name.
    var epoch: String
    /// How many changes (and resets) the hub had learned of at this position.
    var sequence: UInt64

    /// A new random epoch: 16 hexadecimal digits.
    static func randomEpoch() -> String {
        let digits = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// `<epoch>:<sequence>`.
    var description: String { "\(epoch):\(sequence)" }

    /// Reads `<epoch>:<sequence>`; `nil` for any other text.
    init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].utf8.count <= 64,
            parts[1].utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let sequence = UInt64(parts[1])
        else { return nil }
        self.init(epoch: String(parts[0]), sequence: sequence)
    }

    init(epoch: String, sequence: UInt64) {
        self.epoch = epoch
        self.sequence = sequence
    }
}
