/// An item's `version`: the text a client sends back in `If-Match` so a server can refuse a change to an
/// item that changed meanwhile.
@_spi(SyncTablesTools) public enum ItemVersion {
    /// The item's `version` as text, or `nil` when it has none.
    ///
    /// Servers send a string; some older ones send an integer, read here as its decimal text. An empty
    /// string is no version, and so is `null`, any other value, or no `version` property at all.
    ///
    /// ```swift
    /// ItemVersion.version(of: ["id": "a", "version": "AAAAAAAAHzg="])  // "AAAAAAAAHzg="
    /// ItemVersion.version(of: ["id": "a", "version": 7])               // "7"
    /// ItemVersion.version(of: ["id": "a", "version": ""])              // nil
    /// ```
    @_spi(SyncTablesTools) public static func version(of item: JSONObject) -> String? {
        switch item["version"] {
        case .string(let text)? where !text.isEmpty: text
        case .integer(let number)?: String(number)
        default: nil
        }
    }
}
