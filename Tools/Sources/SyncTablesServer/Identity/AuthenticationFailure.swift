import HTTPTypes
import Hummingbird

/// Why a request's credentials prove no caller. The reason goes to the metrics and the debug log only: the
/// client learns no more than that it is unauthorized.
enum AuthenticationFailure: String, Error, Sendable, CaseIterable {
    /// No credentials at all.
    case missing
    /// A static token that is not the configured one.
    case wrongToken = "wrong_token"
    /// Not a JSON Web Token (three base64url parts of JSON).
    case malformed
    /// An algorithm that is not accepted (`none`), or not the one of the key the token names.
    case algorithm
    /// A key id the key set does not hold (after a reload), or none when the set has several keys.
    case unknownKey = "unknown_key"
    /// The signature does not match.
    case signature
    /// `exp` is past (beyond the leeway), or missing.
    case expired
    /// `nbf` is ahead (beyond the leeway).
    case notYetValid = "not_yet_valid"
    /// `iss` is not the configured issuer.
    case issuer
    /// `aud` does not include the configured audience.
    case audience
    /// No `sub`.
    case subject

    /// The 401 answer: `WWW-Authenticate: Bearer` with `error="invalid_token"` when credentials were sent
    /// (RFC 6750 §3.1), and a body that says only that the request is unauthorized.
    var error: ServerError {
        let challenge =
            self == .missing
            ? #"Bearer realm="sync-server""# : #"Bearer realm="sync-server", error="invalid_token""#
        return ServerError(
            .unauthorized, "Unauthorized: a valid token is required.", headers: [.wwwAuthenticate: challenge])
    }
}
