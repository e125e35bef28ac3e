/// An item's `version` as it travels in `ETag` and `If-Match` headers: quoted, with `"` escaped as `\"`.
///
/// The client sends it in `If-Match` and reads it from `ETag`; the server does the opposite, so both read and
/// write it here.
///
/// ```swift
/// EntityTag.header(for: "AAAAAAAAHzg=")            // "\"AAAAAAAAHzg=\""
/// EntityTag.version(fromETag: #""AAAAAAAAHzg=""#)  // "AAAAAAAAHzg="
/// ```
@_spi(SyncTablesTools) public enum EntityTag {
    /// The version carried by an `ETag` (or `If-Match`) header: one pair of surrounding double quotes removed
    /// (after a weak `W/` prefix, if any) and `\"` unescaped to `"`.
    ///
    /// ```swift
    /// EntityTag.version(fromETag: #""AAAAAAAAHzg=""#)  // "AAAAAAAAHzg="
    /// EntityTag.version(fromETag: #""a\"b""#)          // a"b
    /// ```
    @_spi(SyncTablesTools) public static func version(fromETag header: String) -> String {
        var text = Substring(header.trimmingSpaces())
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        if text.count >= 2, text.first == "\"", text.last == "\"" {
            text = text.dropFirst().dropLast()
        }
        return String(text).replacing("\\\"", with: "\"")
    }

    /// The `ETag` or `If-Match` header value for a version: wrapped in double quotes, with each `"` escaped
    /// as `\"`.
    ///
    /// ```swift
    /// EntityTag.header(for: #"a"b"#)  // "a\"b" including the outer quotes
    /// ```
    @_spi(SyncTablesTools) public static func header(for version: String) -> String {
        "\"" + version.replacing("\"", with: "\\\"") + "\""
    }
}
