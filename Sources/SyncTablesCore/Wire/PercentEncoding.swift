/// Percent-encoding for the two places the table protocol puts user text into URLs.
///
/// Both encode UTF-8 bytes as `%XX` with upper-case hex digits.
@_spi(SyncTablesTools) public enum PercentEncoding {
    /// Encodes a path segment such as an item id like .NET's `Uri.EscapeDataString`: everything except the
    /// RFC 3986 unreserved characters (`A–Z a–z 0–9 - . _ ~`) is encoded, so `/`, `?`, `#`, `%` and spaces
    /// can never change the URL's structure.
    ///
    /// ```swift
    /// PercentEncoding.pathSegment("a b/c")  // "a%20b%2Fc"
    /// ```
    @_spi(SyncTablesTools) public static func pathSegment(_ text: String) -> String {
        encode(text) { isUnreserved($0) }
    }

    /// Encodes a query parameter value strictly, as the iOS client does: unreserved characters, `'`, `(` and
    /// `)` stay (so OData literals stay readable); everything else, including `:` → `%3A`, space → `%20`,
    /// `+` → `%2B`, `&`, `=` and `,`, is encoded.
    ///
    /// ```swift
    /// PercentEncoding.queryValue("(updatedAt ge datetimeoffset'1970-01-01T00:00:00.000Z')")
    /// // "(updatedAt%20ge%20datetimeoffset'1970-01-01T00%3A00%3A00.000Z')"
    /// ```
    @_spi(SyncTablesTools) public static func queryValue(_ text: String) -> String {
        encode(text) {
            isUnreserved($0) || $0 == UInt8(ascii: "'") || $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: ")")
        }
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static func encode(_ text: String, keeping isKept: (UInt8) -> Bool) -> String {
        let hexDigits = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isKept(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
