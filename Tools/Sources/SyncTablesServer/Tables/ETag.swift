import Foundation
@_spi(SyncTablesTools) import SyncTablesCore

/// Reads and writes entity tags: an item's `version` wrapped in double quotes, as the client reads and
/// writes them (``EntityTag``).
enum ETag {
    /// The `ETag` header value for a version: quoted, with `"` inside escaped as `\"`.
    static func header(for version: String) -> String {
        EntityTag.header(for: version)
    }

    /// What an `If-Match` header asks for.
    enum Precondition: Equatable {
        /// `*`: any existing row.
        case anyVersion
        /// Exactly this version.
        case version(String)
    }

    /// Parses `If-Match`: `*`, or an entity tag (see ``EntityTag/version(fromETag:)``).
    static func precondition(fromIfMatch header: String) -> Precondition {
        if header.trimmingCharacters(in: .whitespaces) == "*" { return .anyVersion }
        return .version(EntityTag.version(fromETag: header))
    }
}
