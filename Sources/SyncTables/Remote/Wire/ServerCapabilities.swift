/// The protocol extensions a server advertises in the `X-SyncTables-Capabilities` header of its query
/// responses: a comma-separated list of names.
///
/// `keyset-pull`: the server orders query results by the requested `$orderby` keys and then by `id`, and
/// compares `id` in filters in that same order, so an incremental pull can resume after an
/// `(updatedAt, id)` position instead of skipping rows (see <doc:IncrementalPull>).
package struct ServerCapabilities: Sendable, Hashable {
    /// The response header that lists the capabilities.
    package static let headerName = "X-SyncTables-Capabilities"
    /// The name of the keyset incremental pull capability.
    package static let keysetPullName = "keyset-pull"

    /// Whether the server resumes incremental pulls after an `(updatedAt, id)` position.
    package var keysetPull = false

    /// No capabilities.
    package init(keysetPull: Bool = false) {
        self.keysetPull = keysetPull
    }

    /// Reads the header's value; unknown names are ignored.
    package init(headerValue: String?) {
        let names = headerValue?.split(separator: ",").map { String($0).trimmingSpaces().lowercased() }
        keysetPull = names?.contains(Self.keysetPullName) ?? false
    }

    /// The header's value.
    package var headerValue: String {
        keysetPull ? Self.keysetPullName : ""
    }
}
