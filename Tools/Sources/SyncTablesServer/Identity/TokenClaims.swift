import JWTKit

/// The payload of a token as the server reads it: the registered claims it checks, and every top-level
/// claim with a string, number or boolean value as text (what ``Caller/claims`` carries).
struct TokenClaims: JWTPayload {
    var subject: String?
    var issuer: String?
    var audience: AudienceClaim?
    var expiration: ExpirationClaim?
    var notBefore: NotBeforeClaim?
    var text: [String: String]

    init(
        subject: String?, issuer: String? = nil, audience: AudienceClaim? = nil, expiration: ExpirationClaim? = nil,
        notBefore: NotBeforeClaim? = nil, text: [String: String] = [:]
    ) {
        self.subject = subject
        self.issuer = issuer
        self.audience = audience
        self.expiration = expiration
        self.notBefore = notBefore
        self.text = text
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ClaimKey.self)
        subject = try container.decodeIfPresent(String.self, forKey: ClaimKey("sub"))
        issuer = try container.decodeIfPresent(String.self, forKey: ClaimKey("iss"))
        audience = try container.decodeIfPresent(AudienceClaim.self, forKey: ClaimKey("aud"))
        expiration = try container.decodeIfPresent(ExpirationClaim.self, forKey: ClaimKey("exp"))
        notBefore = try container.decodeIfPresent(NotBeforeClaim.self, forKey: ClaimKey("nbf"))
        var text: [String: String] = [:]
        for key in container.allKeys {
            if let value = try? container.decode(String.self, forKey: key) {
                text[key.stringValue] = value
            } else if let value = try? container.decode(Bool.self, forKey: key) {
                text[key.stringValue] = String(value)
            } else if let value = try? container.decode(Int64.self, forKey: key) {
                text[key.stringValue] = String(value)
            } else if let value = try? container.decode(Double.self, forKey: key) {
                text[key.stringValue] = String(value)
            }
        }
        self.text = text
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ClaimKey.self)
        let registered: Set<String> = ["sub", "iss", "aud", "exp", "nbf"]
        for (name, value) in text where !registered.contains(name) {
            try container.encode(value, forKey: ClaimKey(name))
        }
        try container.encodeIfPresent(subject, forKey: ClaimKey("sub"))
        try container.encodeIfPresent(issuer, forKey: ClaimKey("iss"))
        try container.encodeIfPresent(audience, forKey: ClaimKey("aud"))
        try container.encodeIfPresent(expiration, forKey: ClaimKey("exp"))
        try container.encodeIfPresent(notBefore, forKey: ClaimKey("nbf"))
    }

    /// Nothing: ``JWTVerifier`` checks the times (with the configured leeway and clock), issuer and audience
    /// after jwt-kit has checked the signature.
    func verify(using algorithm: some JWTAlgorithm) async throws {}

    private struct ClaimKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
