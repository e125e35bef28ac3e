/// Who sent a request, as its verified credentials say: the server's only source of identity.
///
/// A ``SyncServer`` with JWT verification builds it from a token's verified claims; without it (no token, or the
/// static development token) every request comes from ``development``, which has no subject and no claims.
/// Nothing a client writes in a body, a query or a header other than its credentials changes it.
public struct Caller: Sendable, Hashable {
    /// The token's subject (`sub`): the user rows with an `owner` rule belong to. `nil` in development.
    public let subject: String?
    /// The token's claims with a string, number or boolean value, as text (`"team": "blue"`, `"level": "3"`),
    /// which `claim` rules scope rows by.
    public let claims: [String: String]

    /// Creates a caller with a verified subject and claims.
    public init(subject: String?, claims: [String: String] = [:]) {
        self.subject = subject
        self.claims = claims
    }

    /// Every request of a server without JWT verification: no subject, no claims.
    public static let development = Caller(subject: nil)
}
