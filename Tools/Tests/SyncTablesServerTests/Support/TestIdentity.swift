import Foundation
import JWTKit
import Testing

@testable import SyncTablesServer

/// Keys of every accepted algorithm, a key set file that publishes them, and tokens signed (or forged) with them.
///
/// The RSA key is a fixed test key (generating one takes seconds in a debug build); the others are new each time.
struct TestIdentity: Sendable {
    static let rsaKeyID = "rsa-1"
    static let ecKeyID = "ec-1"
    static let edKeyID = "ed-1"
    static let hmacKeyID = "hs-1"

    let rsa: Insecure.RSA.PrivateKey
    let ec = ES256PrivateKey()
    let ed: EdDSA.PrivateKey
    let hmacSecret: [UInt8] = (0..<32).map { _ in UInt8.random(in: 0...255) }

    init() throws {
        rsa = try Insecure.RSA.PrivateKey(pem: Self.rsaPEM)
        ed = try EdDSA.PrivateKey(curve: .ed25519)
    }

    /// The public key set (and the shared secret as an `oct` key), as JSON.
    func keySetJSON(including extra: [[String: Any]] = []) throws -> Data {
        let (modulus, exponent) = try rsa.publicKey.getKeyPrimitives()
        let parameters = try #require(ec.parameters)
        let keys: [[String: Any]] =
            [
                [
                    "kty": "RSA", "kid": Self.rsaKeyID, "use": "sig", "n": Base64URL.encode(modulus),
                    "e": Base64URL.encode(exponent),
                ],
                [
                    "kty": "EC", "kid": Self.ecKeyID, "crv": "P-256", "alg": "ES256", "x": parameters.x,
                    "y": parameters.y,
                ],
                [
                    "kty": "OKP", "kid": Self.edKeyID, "crv": "Ed25519",
                    "x": Base64URL.encode(ed.publicKey.rawRepresentation),
                ],
                ["kty": "oct", "kid": Self.hmacKeyID, "alg": "HS256", "k": Base64URL.encode(Data(hmacSecret))],
            ] + extra
        return try JSONSerialization.data(withJSONObject: ["keys": keys])
    }

    /// Writes the key set to a new temporary file and returns its path.
    func writeKeySet(including extra: [[String: Any]] = []) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("jwks-\(UUID().uuidString).json").path
        try keySetJSON(including: extra).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Claims valid now for an hour.
    static func claims(
        subject: String? = "alice", issuer: String? = nil, audience: String? = nil, expires: Date = Date() + 3600,
        notBefore: Date? = nil, text: [String: String] = [:]
    ) -> TokenClaims {
        TokenClaims(
            subject: subject, issuer: issuer, audience: audience.map { AudienceClaim(value: [$0]) },
            expiration: ExpirationClaim(value: expires), notBefore: notBefore.map { NotBeforeClaim(value: $0) },
            text: text)
    }

    /// A token signed with the key of `algorithm` (`RS256`, `ES256`, `EdDSA` or `HS256`).
    func token(_ algorithm: String, _ claims: TokenClaims = Self.claims()) async throws -> String {
        let keys = JWTKeyCollection()
        let kid: String
        switch algorithm {
        case "RS256":
            await keys.add(rsa: rsa, digestAlgorithm: .sha256, kid: JWKIdentifier(string: Self.rsaKeyID))
            kid = Self.rsaKeyID
        case "ES256":
            await keys.add(ecdsa: ec, kid: JWKIdentifier(string: Self.ecKeyID))
            kid = Self.ecKeyID
        case "EdDSA":
            await keys.add(eddsa: ed, kid: JWKIdentifier(string: Self.edKeyID))
            kid = Self.edKeyID
        default:
            await keys.add(
                hmac: HMACKey(from: hmacSecret), digestAlgorithm: .sha256, kid: JWKIdentifier(string: Self.hmacKeyID))
            kid = Self.hmacKeyID
        }
        return try await keys.sign(claims, kid: JWKIdentifier(string: kid))
    }

    /// A token signed with `key` under the key id `kid`.
    static func token(signedBy key: ES256PrivateKey, kid: String, _ claims: TokenClaims = Self.claims()) async throws
        -> String
    {
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: key, kid: JWKIdentifier(string: kid))
        return try await keys.sign(claims, kid: JWKIdentifier(string: kid))
    }

    /// The algorithm-confusion forgery: HS256 "signed" with the RSA public key's PEM as the shared secret,
    /// naming the RSA key.
    func hs256SignedWithTheRSAPublicKey() async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(
            hmac: HMACKey(from: Array(rsa.publicKey.pemRepresentation.utf8)), digestAlgorithm: .sha256,
            kid: JWKIdentifier(string: Self.rsaKeyID))
        return try await keys.sign(Self.claims(), kid: JWKIdentifier(string: Self.rsaKeyID))
    }

    /// An unsecured token (`"alg": "none"`, empty signature) naming `kid`, built by hand as an attacker would.
    static func unsecured(kid: String, subject: String = "alice") throws -> String {
        let header = try JSONSerialization.data(withJSONObject: ["alg": "none", "typ": "JWT", "kid": kid])
        let payload = try JSONSerialization.data(
            withJSONObject: ["sub": subject, "exp": Int(Date().timeIntervalSince1970) + 3600])
        return Base64URL.encode(header) + "." + Base64URL.encode(payload) + "."
    }

    /// The public JWK of a new ES256 key under `kid`, and the key.
    static func newECKey(kid: String) throws -> (jwk: [String: Any], key: ES256PrivateKey) {
        let key = ES256PrivateKey()
        let parameters = try #require(key.parameters)
        return (["kty": "EC", "kid": kid, "crv": "P-256", "alg": "ES256", "x": parameters.x, "y": parameters.y], key)
    }

    /// A fixed 2048-bit RSA key for tests only.
    static let rsaPEM = """
        -----BEGIN PRIVATE KEY-----
        MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQCPLYGhnY6bOdhD
        jLZklra+1N19YdVrjYNmtFIXx7j6Xs+Z3j2hdBgM3mWAM6IxWwODPW4stxLxQctk
        oTPhwNEuo8MLhpS5Vr4Gic0u5RJ+fiU/RnVfxmln7Z7nCiAoOyRKgKyJg43s5r+r
        imnvMM6X2jLCZvKcrBQ0oI+SJWheC/dnoMoJQnHndGpn2Hrzw/tvha4wvBueTp7b
        nU/kLumkP1PLHNp3v/uZH7+92qjMA4imeATnkC604PbruX+wgLS+Z/7KFrFUZhz9
        ve2uXMY2mqSXK1HWiIr/rnK+a5Rh4ifLa+T4LMx4zuKm6uvWCpHhOlKKPIQYrBm9
        iPuTXyYfAgMBAAECggEABoIYCWOjDtVDSlbEF7BuICCG7OMck2X8WhfKP4B5nQ/g
        OetLO+KOEU+up3QxZDLx5u5M6sVrnAHUn/9f31wnZgpVnFmCuyYBP0TWSdJp08wi
        H00xmqfnNK0tcu0X5xxBGw3cSefr9J/MiJyjEhdS3L4zXnjVgF+mD3pY7Fi89MFf
        FgHy9odgSGWg6AGWa8O1cv7LOhqv/4jWRl4OKDPL71V4bot2q1zm+rjdzdJzSHoQ
        35EnX2FG4Nq6bQaWEn3b53MZZ/EL5t+nTOswkjih11o/IMEon787A7jz6+3IrFIL
        ahu/AD4/zXu19t6i9ERn4CTbL4kXv2IR4ZPPlxEGiQKBgQDDSX50kFSLBs3Y1jP+
        qU/mzdIpoPo0yerW6bTFIUY+085MYX+Mg/m01f3KAcc9uDbSN7G2VeR3oga5MYi/
        wi2XJdcFxUyvxKbIytiE1lKZfrVRMYVPKBmUYE3sMt9HK3rDr5lYJidEK6YSoYwE
        e4APhDpevKQKO1KO7WJWZ6tLfQKBgQC7sLxq6j+OYlWBh82ykkiqRQrk/T7tmXPe
        Az0kkAoViLyr+f56ez6kSqpLGEMaZAhoQ3YMhnGD2F1aiWDdZmGwxqCKEsHxEaIY
        mMXUUCjDGw6egQl9k4xfo5c18sf5gMMFOTLJqchXxWyTpRJv05elHqJXSDNkbQxv
        mh/XigGSywKBgQC2lMsG/j4c8ZKZbcOVEAVlO/+G7jugCTxoDH73Y6HCcdLKNMnE
        vUtEWGH8cOcv/EA9ENc1K178vt7cXMSGzGxFiZpcidel6g0pZAVFRQBbBE1PiSYj
        GNG5mMSh1fpNFwijVlTfRmSl5s1RU/qN4k2btDvCgUo5Srdoa+bp8+kCHQKBgGtF
        wxrUUYj+mOJUjPNf+loe5fAk8d940il07nBERw8xvKwKUTEN2aqq5hPPhSLDQ67b
        x8+205BIjGqflBZWWsVfcQgZWnF+44dtYbxMKFAC2eMr2xHDz/ollNoHrdXjixMk
        Muvhtxi7RKhKM3RomgaMsLp0ELN4RCBRFZvqS6XrAoGBALY7cJ4874PG/7pn0tLV
        E57N7Av0BBRy4/8MD8QwHirlJygNJMI7HiUjpfT8yUAlQ7dj6gpXh6nzebUXBkNy
        tlWwWoHEOV3Pvf9pGaZAeHTvnRVxS+O7/V48nm9sj88FlDGTw09iGbvD0GOZNI5L
        ES53u7ViP/UtBBtAL98nzbAq
        -----END PRIVATE KEY-----
        """
}
