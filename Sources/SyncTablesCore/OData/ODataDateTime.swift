/// Reads the content of `datetime'…'`, `datetimeoffset'…'` and `guid'…'` literals.
enum ODataDateTime {
    /// Parses an ISO-8601 date-time; OData v3 `datetime` literals may omit the zone (read as UTC) and
    /// the seconds (`2001-02-03T04:05`).
    static func parse(_ content: String) -> Timestamp? {
        if let timestamp = Timestamp(parsing: content) { return timestamp }
        if let timestamp = Timestamp(parsing: content + "Z") { return timestamp }
        if content.utf8.count == 16 { return Timestamp(parsing: content + ":00Z") }
        return nil
    }

    /// `true` for `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with hexadecimal digits.
    static func isGUID(_ content: String) -> Bool {
        let bytes = Array(content.utf8)
        guard bytes.count == 36 else { return false }
        for (offset, byte) in bytes.enumerated() {
            if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                let isHex =
                    (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                    || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
                    || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
                guard isHex else { return false }
            }
        }
        return true
    }
}
