import Foundation
import JWTKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A signing key for development: a JSON Web Key Set file holding one Ed25519 private key, which
/// `sync-server dev-token` signs tokens with and `sync-server --jwt-keys <file>` verifies them with.
///
/// ```swift
/// let key = try DevelopmentKey.loadOrCreate(at: DevelopmentKey.defaultPath)
/// let token = try await key.token(subject: "alice", claims: ["team": "blue"])
/// // sync-server --jwt-keys <DevelopmentKey.defaultPath> accepts it
/// ```
///
/// The file is created with mode 0600 when absent. It holds a private key: use it for development only, and
/// keep it out of version control; a production server verifies its identity provider's public keys instead.
public struct DevelopmentKey: Sendable {
    /// The key set file.
    public let path: String
    /// The key's id (`kid`), which every token it signs names.
    public let keyID: String
    private let jwk: JWK

    /// `$XDG_CONFIG_HOME/sync-server/dev-key.json`, else `~/.config/sync-server/dev-key.json`.
    public static var defaultPath: String {
        let environment = ProcessInfo.processInfo.environment
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".config")
        return (base as NSString).appendingPathComponent("sync-server/dev-key.json")
    }

    /// Reads the key at `path`, or creates a new one there (mode 0600, parent folders included) when the file
    /// does not exist.
    public static func loadOrCreate(at path: String) throws -> DevelopmentKey {
        if FileManager.default.fileExists(atPath: path) { return try load(from: path) }
        let secret = try EdDSA.PrivateKey(curve: .ed25519)
        let keyID = "dev-" + UUID().uuidString.prefix(8).lowercased()
        let jwk = JWK.octetKeyPair(
            .eddsa, identifier: JWKIdentifier(string: keyID), x: Base64URL.encode(secret.publicKey.rawRepresentation),
            y: nil, curve: .ed25519, privateKey: Base64URL.encode(secret.rawRepresentation))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        var data = try encoder.encode(JWKS(keys: [jwk]))
        data.append(UInt8(ascii: "\n"))
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try writePrivately(data, to: path)
        return DevelopmentKey(path: path, keyID: keyID, jwk: jwk)
    }

    /// Reads the key at `path`.
    public static func load(from path: String) throws -> DevelopmentKey {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let jwk = try JSONDecoder().decode(JWKS.self, from: data).keys.first,
            jwk.privateExponent != nil, let keyID = jwk.keyIdentifier?.string
        else { throw DevelopmentKeyError.notAPrivateKey(path) }
        return DevelopmentKey(path: path, keyID: keyID, jwk: jwk)
    }

    /// A token for `subject`, signed with this key, valid from now for `expiresIn`.
    ///
    /// - Parameters:
    ///   - subject: The `sub` claim: the user.
    ///   - claims: More claims, as strings (`"team": "blue"`).
    ///   - issuer: The `iss` claim, if any.
    ///   - audience: The `aud` claim, if any.
    ///   - expiresIn: How long the token is valid: one hour unless changed.
    ///   - now: The time the token starts to be valid.
    public func token(
        subject: String, claims: [String: String] = [:], issuer: String? = nil, audience: String? = nil,
        expiresIn: Duration = .seconds(3600), now: Date = Date()
    ) async throws -> String {
        let keys = JWTKeyCollection()
        try await keys.add(jwk: jwk)
        let payload = TokenClaims(
            subject: subject, issuer: issuer, audience: audience.map { AudienceClaim(value: [$0]) },
            expiration: ExpirationClaim(value: now.addingTimeInterval(expiresIn.seconds)),
            notBefore: NotBeforeClaim(value: now), text: claims)
        return try await keys.sign(payload, kid: JWKIdentifier(string: keyID))
    }

    /// Writes `data` to a new file only its owner can read.
    private static func writePrivately(_ data: Data, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw DevelopmentKeyError.cannotCreate(path, errno) }
        defer { close(descriptor) }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == data.count else { throw DevelopmentKeyError.cannotCreate(path, errno) }
    }
}

/// Why a ``DevelopmentKey`` could not be read or created.
public enum DevelopmentKeyError: Error, CustomStringConvertible {
    /// The file is not a key set whose first key is a private key with a `kid`.
    case notAPrivateKey(String)
    /// The file could not be created (the `errno` value).
    case cannotCreate(String, Int32)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .notAPrivateKey(let path): "\(path) holds no private JSON Web Key with a kid"
        case .cannotCreate(let path, let code): "cannot create \(path): \(String(cString: strerror(code)))"
        }
    }
}
