/// The key of one write for a server that replays keyed writes: sent as `Idempotency-Key: "<value>"` (a
/// structured-field string, as the IETF draft "The Idempotency-Key HTTP Header Field" defines it), or as a
/// batched write's `idempotencyKey`.
package struct IdempotencyKey: Sendable, Hashable {
    /// The header's name, as the server announced it.
    package var header: String
    /// The key: printable ASCII, at most 255 characters.
    package var value: String

    /// The header's value: the key quoted, with `\` and `"` escaped.
    var fieldValue: String {
        "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// Whether `name` can name a header (an HTTP token).
    static func isHeaderName(_ name: String) -> Bool {
        let allowed = Set("!#$%&'*+-.^_`|~".utf8)
        return !name.isEmpty
            && name.utf8.allSatisfy { byte in
                allowed.contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
            }
    }
}
