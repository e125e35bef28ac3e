/// The protocol extensions a server advertises in the `X-SyncTables-Capabilities` header of its query
/// responses: a comma-separated list of names.
///
/// `keyset-pull`: the server orders query results by the requested `$orderby` keys and then by `id`, and
/// compares `id` in filters in that same order, so an incremental pull can resume after an
/// `(updatedAt, id)` position instead of skipping rows (the SyncTables article "Incremental pull" tells how).
///
/// ```swift
/// ServerCapabilities(headerValue: "keyset-pull, something-new").keysetPull  // true
/// ServerCapabilities(keysetPull: true).headerValue                          // "keyset-pull"
/// ```
@_spi(SyncTablesTools) public struct ServerCapabilities: Sendable, Hashable {
    /// The response header that lists the capabilities.
    @_spi(SyncTablesTools) public static let headerName = "X-SyncTables-Capabilities"
    /// The name of the keyset incremental pull capability.
    @_spi(SyncTablesTools) public static let keysetPullName = "keyset-pull"

    /// Whether the server resumes incremental pulls after an `(updatedAt, id)` position.
    @_spi(SyncTablesTools) public var keysetPull = false

    /// No capabilities.
    @_spi(SyncTablesTools) public init(keysetPull: Bool = false) {
        self.keysetPull = keysetPull
    }

    /// Reads the header's value; unknown names are ignored.
    @_spi(SyncTablesTools) public init(headerValue: String?) {
        let names = headerValue?.split(separator: ",").map { String($0).trimmingSpaces().lowercased() }
        keysetPull = names?.contains(Self.keysetPullName) ?? false
    }

    /// The header's value.
    @_spi(SyncTablesTools) public var headerValue: String {
        keysetPull ? Self.keysetPullName : ""
    }
}
