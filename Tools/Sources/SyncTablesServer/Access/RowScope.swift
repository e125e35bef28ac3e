import Hummingbird
import SyncTablesCore

/// The rows of one table a caller may see and change, and what the server writes into the rows it creates for
/// that caller: an ``AccessRule`` applied to a ``Caller``.
///
/// Reads AND ``filter`` to whatever the client asked (as a node of the expression tree, so no `or`, parenthesis
/// or function in `$filter` can reach around it); writes check ``contains(_:)`` on the stored row inside the
/// storage's atomic read-decide-write, so a row outside the scope behaves as if it did not exist.
struct RowScope: Sendable {
    /// The condition every row the caller may see meets; `nil`: every row.
    let filter: FilterExpression?
    /// The property and value the server writes into every row the caller inserts (owner or claim rules).
    let stamp: (column: String, value: String)?
    /// Whether the caller may write at all.
    let writable: Bool

    /// Every row, writable: development mode, and the `authenticated` rule.
    static let everything = RowScope(filter: nil, stamp: nil, writable: true)

    /// The scope of `rule` for `caller`; throws 401 when the caller has no verified subject, and 403 when the
    /// rule needs a claim the caller's token does not carry, or when the subject or claim value that would own
    /// its rows is longer than ``ChangeAnnouncement/maxScopeBytes`` (the change feeds could not announce them).
    init(_ rule: AccessRule, caller: Caller, table: String) throws(ServerError) {
        // Every rule needs a verified caller: without JWT verification (no token, or the static development
        // token) nobody reaches a declared table, so forgetting `--jwt-keys` never opens one to anyone.
        guard let subject = caller.subject else {
            throw ServerError(
                .unauthorized, "Unauthorized: the table '\(table)' needs a token that names its user.",
                headers: Self.challenge)
        }
        switch rule {
        case .authenticated:
            self = .everything
        case .readOnly:
            self.init(filter: nil, stamp: nil, writable: false)
        case .owner(let column):
            try Self.requireAnnounceable(subject, what: "subject", table: table)
            self.init(column: column, value: subject)
        case .claim(let claim, let column):
            guard let value = caller.claims[claim] else {
                throw ServerError(
                    .forbidden, "Forbidden: the table '\(table)' needs the claim '\(claim)' in the token.")
            }
            try Self.requireAnnounceable(value, what: "claim '\(claim)'", table: table)
            self.init(column: column, value: value)
        }
    }

    private static func requireAnnounceable(_ value: String, what: String, table: String) throws(ServerError) {
        guard value.utf8.count <= ChangeAnnouncement.maxScopeBytes else {
            throw ServerError(
                .forbidden,
                "Forbidden: the token's \(what) is longer than \(ChangeAnnouncement.maxScopeBytes) bytes, too long to own rows of the table '\(table)'."
            )
        }
    }

    private init(column: String, value: String) {
        self.init(
            filter: .comparison(.equal, .property(column), .value(.string(value))), stamp: (column, value),
            writable: true)
    }

    private init(filter: FilterExpression?, stamp: (column: String, value: String)?, writable: Bool) {
        self.filter = filter
        self.stamp = stamp
        self.writable = writable
    }

    /// Whether the stored row is one the caller may see.
    func contains(_ item: JSONObject) -> Bool {
        guard let stamp else { return true }
        return item[stamp.column] == .string(stamp.value)
    }

    /// Throws 403 unless the caller may write.
    func requireWritable(_ table: String) throws(ServerError) {
        guard writable else { throw ServerError(.forbidden, "Forbidden: the table '\(table)' is read-only.") }
    }

    /// `filter` ANDed with the scope.
    func restricting(_ filter: FilterExpression?) -> FilterExpression? {
        guard let scope = self.filter else { return filter }
        return filter.map { .and(scope, $0) } ?? scope
    }

    private static let challenge: HTTPFields = [.wwwAuthenticate: #"Bearer error="invalid_token""#]
}
