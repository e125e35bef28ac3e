/// The item version as it travels in `ETag` and `If-Match` headers.
package enum EntityTag {
    /// The version carried by an `ETag` header: one pair of surrounding double quotes removed (after a
    /// weak `W/` prefix, if any) and `\"` unescaped to `"`.
    ///
    /// ```swift
    /// EntityTag.version(fromETag: #""AAAAAAAAHzg=""#)  // "AAAAAAAAHzg="
    /// EntityTag.version(fromETag: #""a\"b""#)          // a"b
    /// ```
    package static func version(fromETag header: String) -> String {
        var text = Substring(header.trimmingSpaces())
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        if text.count >= 2, text.first == "\"", text.last == "\"" {
            text = text.dropFirst().dropLast()
        }
        return String(text).replacing("\\\"", with: "\"")
    }

    /// The `If-Match` value for a version: wrapped in double quotes, with each `"` escaped as `\"`.
    ///
    /// ```swift
    /// EntityTag.ifMatch(version: #"a"b"#)  // "a\"b" including the outer quotes
    /// ```
    @_spi(SyncTablesTools) public static func ifMatch(version: String) -> String {
        "\"" + version.replacing("\"", with: "\\\"") + "\""
    }
}
