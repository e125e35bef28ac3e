import Foundation

/// Reads and writes entity tags: an item's `version` wrapped in double quotes.
enum ETag {
    /// The `ETag` header value for a version: quoted, with `"` inside escaped as `\"`.
    static func header(for version: String) -> String {
        "\"" + version.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// What an `If-Match` header asks for.
    enum Precondition: Equatable {
        /// `*`: any existing row.
        case anyVersion
        /// Exactly this version.
        case version(String)
    }

    /// Parses `If-Match`: strips one pair of surrounding quotes (and a weak `W/` prefix), unescapes `\"`.
    static func precondition(fromIfMatch header: String) -> Precondition {
        var value = header.trimmingCharacters(in: .whitespaces)
        if value == "*" { return .anyVersion }
        if value.hasPrefix("W/") { value.removeFirst(2) }
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
            value = String(value.dropFirst().dropLast())
        }
        return .version(value.replacingOccurrences(of: "\\\"", with: "\""))
    }
}
