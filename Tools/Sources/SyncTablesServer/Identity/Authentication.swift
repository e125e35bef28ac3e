/// How a ``SyncServer`` learns who sent a request: not at all, from a static development token, or from a
/// verified JSON Web Token.
///
/// ```swift
/// var configuration = SyncServerConfiguration(storage: .inMemory)
/// configuration.authentication = .jwt(JWTVerification(keys: .url(URL(string: "https://example.eu.auth0.com/.well-known/jwks.json")!),
///                                                     issuer: "https://example.eu.auth0.com/", audience: "sync-api"))
/// ```
///
/// Every request that fails the check is answered 401 with a `WWW-Authenticate: Bearer` header and a body
/// that says only that it is unauthorized. See <doc:Identity>.
public enum Authentication: Sendable {
    /// Every request is allowed and comes from ``Caller/development``.
    case none
    /// Every request must carry this token as `Authorization: Bearer <token>` or `X-ZUMO-AUTH: <token>`, and comes
    /// from ``Caller/development``: for development and tests, where one shared secret is enough.
    case staticToken(String)
    /// Every request must carry a JSON Web Token as `Authorization: Bearer <token>` (or `X-ZUMO-AUTH`), signed by
    /// one of the configured keys and valid now; it comes from the token's subject (``Caller/subject``).
    case jwt(JWTVerification)
}
