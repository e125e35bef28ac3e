import HTTPTypes
import Hummingbird

/// The `Idempotency-Key` request header (IETF draft "The Idempotency-Key HTTP Header Field"): the client's
/// name for one write, so that sending the write again gets the first answer instead of running it again.
///
/// The draft makes the value a structured-field string (`Idempotency-Key: "8e03978e.2"`); a bare value
/// (`Idempotency-Key: 8e03978e.2`) is taken too, as many clients send one. Either way the key is 1 to
/// ``maximumLength`` printable ASCII characters.
enum IdempotencyKey {
    /// The header's name, as the capabilities document announces it.
    static let headerName = "Idempotency-Key"
    /// The longest key accepted.
    static let maximumLength = 255

    /// The header field's name.
    static var field: HTTPField.Name? { HTTPField.Name(headerName) }

    /// The key a request carries, `nil` when it has none; a malformed or repeated header is a 400.
    static func key(of request: Request) throws(ServerError) -> String? {
        guard let field else { return nil }
        let values = request.headers[values: field]
        guard let value = values.first else { return nil }
        guard values.count == 1 else { throw invalid("send one Idempotency-Key header, not \(values.count)") }
        return try key(fromFieldValue: value)
    }

    /// The key in a header value: a structured-field string, or the bare value.
    static func key(fromFieldValue value: String) throws(ServerError) -> String {
        let trimmed = value.trimmingSpacesAndTabs
        guard trimmed.first == "\"" else { return try validated(trimmed) }
        var key = ""
        var characters = trimmed.dropFirst().makeIterator()
        var closed = false
        while let character = characters.next() {
            if character == "\"" {
                closed = true
                break
            }
            if character == "\\" {
                // Only `\"` and `\\` are escapes in a structured-field string.
                guard let escaped = characters.next(), escaped == "\"" || escaped == "\\" else {
                    throw invalid("a quoted key may escape only '\"' and '\\'")
                }
                key.append(escaped)
            } else {
                key.append(character)
            }
        }
        guard closed, characters.next() == nil else { throw invalid("a quoted key ends at its closing quote") }
        return try validated(key)
    }

    /// The value to send for a key: a structured-field string.
    static func fieldValue(for key: String) -> String {
        "\"" + key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// `key` when it is 1 to ``maximumLength`` printable ASCII characters.
    static func validated(_ key: String) throws(ServerError) -> String {
        guard !key.isEmpty, key.utf8.count <= maximumLength, key.utf8.allSatisfy({ (0x20...0x7E).contains($0) })
        else {
            throw invalid("a key is 1 to \(maximumLength) printable ASCII characters")
        }
        return key
    }

    private static func invalid(_ reason: String) -> ServerError {
        ServerError(.badRequest, "Invalid Idempotency-Key header: \(reason).")
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs (HTTP's optional whitespace).
    fileprivate var trimmingSpacesAndTabs: String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(drop(while: isBlank).reversed().drop(while: isBlank).reversed())
    }
}
