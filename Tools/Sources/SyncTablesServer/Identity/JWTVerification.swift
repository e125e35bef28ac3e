import Foundation

/// What a JSON Web Token must satisfy for a ``SyncServer`` to accept it: a signature by one of the keys of a
/// JSON Web Key Set, and (when set) its issuer and audience, within its validity period.
///
/// The accepted algorithms are RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512 and EdDSA for
/// keys of the set, and HS256, HS384 and HS512 for shared secrets in it (`"kty": "oct"`). A
/// token's `alg` must be the algorithm of the key its `kid` names; `none` is never accepted. A token must
/// carry `sub` and `exp`.
///
/// Keys are read when the server starts (it does not start without them), again when a token names a key
/// id the set does not hold (at most once per ``minimumReloadInterval``, so that tokens with made-up key
/// ids cannot make the server hammer the provider), and again on the first token after
/// ``refreshInterval``, so that a rotated or withdrawn key takes effect without a restart.
///
/// ```swift
/// let verification = JWTVerification(
///     keys: .url(URL(string: "https://login.microsoftonline.com/<tenant>/discovery/v2.0/keys")!),
///     issuer: "https://login.microsoftonline.com/<tenant>/v2.0",
///     audience: "<application id>")
/// ```
public struct JWTVerification: Sendable {
    /// Where the JSON Web Key Set is read from.
    public var keys: KeySource
    /// The `iss` every token must carry; `nil` accepts any issuer.
    public var issuer: String?
    /// The audience every token's `aud` must include; `nil` accepts any audience.
    public var audience: String?
    /// How far a token's `exp` and `nbf` may be off from this server's clock: 60 seconds unless changed.
    public var leeway: Duration
    /// The shortest time between two reloads caused by an unknown key id: 30 seconds unless changed.
    public var minimumReloadInterval: Duration
    /// How old the keys may get before the next token reloads them: one hour unless changed.
    public var refreshInterval: Duration

    /// Creates a verification with keys from `keys`.
    public init(
        keys: KeySource,
        issuer: String? = nil,
        audience: String? = nil,
        leeway: Duration = .seconds(60),
        minimumReloadInterval: Duration = .seconds(30),
        refreshInterval: Duration = .seconds(3600)
    ) {
        self.keys = keys
        self.issuer = issuer
        self.audience = audience
        self.leeway = leeway
        self.minimumReloadInterval = minimumReloadInterval
        self.refreshInterval = refreshInterval
    }

    /// Where a JSON Web Key Set (`{"keys": [...]}`) comes from.
    public enum KeySource: Sendable, Hashable {
        /// A file, read again on every reload.
        case file(path: String)
        /// An `https` URL, such as an identity provider's `jwks_uri`. Plain `http` is accepted only for a
        /// loopback host (`127.0.0.1`, `::1`, `localhost`), where nothing crosses a network.
        case url(URL)

        /// A source from a command line argument: an `https://` or `http://` URL, a `file://` URL, or a path.
        public init(argument: String) {
            if let url = URL(string: argument), let scheme = url.scheme?.lowercased() {
                switch scheme {
                case "https", "http":
                    self = .url(url)
                    return
                case "file":
                    self = .file(path: url.path)
                    return
                default:
                    break
                }
            }
            self = .file(path: argument)
        }
    }
}
