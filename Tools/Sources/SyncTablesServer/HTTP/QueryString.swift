/// A request's query string as ordered name/value pairs, percent-decoded, with each pair's raw text kept so a
/// next-page link can repeat parameters exactly as the client wrote them.
///
/// `+` decodes to a space, as in HTML forms, curl's `--data-urlencode` and the Node reference server; a literal
/// plus must be sent as `%2B` (the .NET and iOS clients do), e.g. `datetimeoffset'…%2B00:00'`.
struct QueryString: Sendable {
    /// One `name=value` pair.
    struct Parameter: Sendable, Equatable {
        /// The decoded name.
        var name: String
        /// The decoded value (empty when the pair had no `=`).
        var value: String
        /// The pair exactly as it appeared in the URL.
        var raw: String
    }

    /// The pairs in request order.
    var parameters: [Parameter]

    /// Parses a raw query (without `?`); malformed percent escapes or invalid UTF-8 are a 400.
    init(raw: String?) throws(ServerError) {
        guard let raw, !raw.isEmpty else {
            parameters = []
            return
        }
        var parameters: [Parameter] = []
        for pair in raw.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try Self.percentDecode(parts[0], plusIsSpace: true)
            let value = parts.count > 1 ? try Self.percentDecode(parts[1], plusIsSpace: true) : ""
            parameters.append(Parameter(name: name, value: value, raw: String(pair)))
        }
        self.parameters = parameters
    }

    /// The value of the first parameter with exactly this name.
    func value(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }

    /// The value of the first parameter whose name matches case-insensitively.
    func valueIgnoringCase(_ name: String) -> String? {
        let lowered = name.lowercased()
        return parameters.first { $0.name.lowercased() == lowered }?.value
    }

    /// Decodes `%XX` escapes into UTF-8 text; in query strings `+` also means a space.
    static func percentDecode(_ text: Substring, plusIsSpace: Bool = false) throws(ServerError) -> String {
        guard text.contains("%") || (plusIsSpace && text.contains("+")) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw ServerError(.badRequest, "The query string contains an invalid percent escape.")
            }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw ServerError(.badRequest, "The query string is not valid UTF-8 after percent-decoding.")
        }
        // PostgreSQL cannot compare or store NUL: both backends refuse it alike.
        guard !bytes.contains(0) else {
            throw ServerError(
                .badRequest, "The URL contains the character U+0000 (NUL, %00), which the server refuses.")
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
