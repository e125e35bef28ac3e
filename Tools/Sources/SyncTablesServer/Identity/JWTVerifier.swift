import Foundation
import JWTKit
import Logging
import SyncTables

/// Verifies JSON Web Tokens as a ``JWTVerification`` says and turns a valid one into its ``Caller``.
///
/// jwt-kit parses the token and checks its signature; this type chooses the key (the one the token's `kid`
/// names, whose algorithm must be the token's `alg`) and checks the times, issuer, audience and subject.
struct JWTVerifier: Sendable {
    let verification: JWTVerification
    let keys: JWTKeyStore
    let clock: any SyncClock

    /// The longest token accepted, in bytes.
    static let maxTokenSize = 16 * 1024

    /// Reads the keys; throws when they cannot be read.
    init(verification: JWTVerification, clock: any SyncClock, logger: Logger) async throws {
        self.verification = verification
        self.clock = clock
        keys = try await JWTKeyStore(verification: verification, clock: clock, logger: logger)
    }

    /// The caller a valid token stands for; throws the reason it is not valid.
    func verify(_ token: String) async throws(AuthenticationFailure) -> Caller {
        let bytes = Array(token.utf8)
        guard bytes.count <= Self.maxTokenSize else { throw .malformed }
        let header: JWTHeader
        do {
            header = try DefaultJWTParser().parse(bytes, as: TokenClaims.self).header
        } catch {
            throw .malformed
        }
        guard let algorithm = header.alg, algorithm != "none" else { throw .algorithm }
        let set = await keys.keys(for: header.kid)
        guard let key = set.key(for: header.kid) else { throw .unknownKey }
        guard key.algorithm == algorithm else { throw .algorithm }
        let claims: TokenClaims
        do {
            // With the `kid` known to the set, jwt-kit verifies with exactly that key.
            claims = try await set.collection.verify(bytes, as: TokenClaims.self)
        } catch {
            throw .signature
        }
        try check(claims)
        guard let subject = claims.subject, !subject.isEmpty else { throw .subject }
        return Caller(subject: subject, claims: claims.text)
    }

    private func check(_ claims: TokenClaims) throws(AuthenticationFailure) {
        let now = clock.now()
        let leeway = verification.leeway.seconds
        guard let expiration = claims.expiration?.value, now.timeIntervalSince(expiration) <= leeway else {
            throw .expired
        }
        if let notBefore = claims.notBefore?.value, notBefore.timeIntervalSince(now) > leeway {
            throw .notYetValid
        }
        if let issuer = verification.issuer, claims.issuer != issuer { throw .issuer }
        if let audience = verification.audience, !(claims.audience?.value.contains(audience) ?? false) {
            throw .audience
        }
    }
}
