import Foundation
import JWTKit

/// The keys of one JSON Web Key Set, ready to verify tokens: jwt-kit's key collection and, for each key id,
/// the one algorithm a token signed with it may name.
struct JSONWebKeySet: Sendable {
    /// The verifying keys, by key id.
    let collection: JWTKeyCollection
    /// The algorithm of each key, by key id (`"RS256"`, `"EdDSA"`, `"HS256"`…).
    let algorithms: [String: String]

    /// The key a token with header `kid` is verified with, as (key id, algorithm): the named one, or the only
    /// key of the set when the token names none.
    func key(for kid: String?) -> (kid: String, algorithm: String)? {
        if let kid { return algorithms[kid].map { (kid, $0) } }
        guard algorithms.count == 1, let only = algorithms.first else { return nil }
        return (only.key, only.value)
    }

    /// Reads a key set from its JSON text. Keys that cannot verify signatures (encryption keys, unknown key
    /// types, keys without a `kid`) are skipped and reported in `skipped`; a set without any usable key throws.
    static func parse(_ data: Data) async throws(KeySetError) -> (keys: JSONWebKeySet, skipped: [String]) {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let entries = object["keys"] as? [[String: Any]]
        else { throw KeySetError.notAKeySet }
        let collection = JWTKeyCollection()
        var algorithms: [String: String] = [:]
        var skipped: [String] = []
        for (index, entry) in entries.enumerated() {
            let name = (entry["kid"] as? String).map { "'\($0)'" } ?? "#\(index)"
            do {
                if let (kid, algorithm) = try await add(entry, to: collection) {
                    algorithms[kid] = algorithm
                } else {
                    skipped.append("\(name): not a signature key")
                }
            } catch {
                skipped.append("\(name): \(error)")
            }
        }
        guard !algorithms.isEmpty else { throw KeySetError.noUsableKey(skipped) }
        return (JSONWebKeySet(collection: collection, algorithms: algorithms), skipped)
    }

    /// Adds one key; `nil` for a key meant for encryption.
    private static func add(_ entry: [String: Any], to collection: JWTKeyCollection) async throws
        -> (String, String)?
    {
        if let use = entry["use"] as? String, use != "sig" { return nil }
        guard let kid = entry["kid"] as? String, !kid.isEmpty else { throw KeySetError.missingKeyID }
        if entry["kty"] as? String == "oct" { return try await addSymmetric(entry, kid: kid, to: collection) }
        var jwk = try JSONDecoder().decode(JWK.self, from: JSONSerialization.data(withJSONObject: entry))
        // A key without `alg` gets its family's usual one, so no token can choose it (jwt-kit would keep the
        // algorithm the first token named for such a key).
        if jwk.algorithm == nil { jwk.algorithm = defaultAlgorithm(of: jwk) }
        guard let algorithm = jwk.algorithm, supported.contains(algorithm.rawValue) else {
            throw KeySetError.unsupportedAlgorithm(jwk.algorithm?.rawValue ?? "none")
        }
        try await collection.add(jwk: jwk)
        return (kid, algorithm.rawValue)
    }

    /// A shared secret (`{"kty": "oct", "k": "<base64url>", "alg": "HS256"}`), which jwt-kit's JWK type
    /// does not read: added as an HMAC key.
    private static func addSymmetric(_ entry: [String: Any], kid: String, to collection: JWTKeyCollection)
        async throws -> (String, String)
    {
        guard let encoded = entry["k"] as? String, let secret = Base64URL.decode(encoded), secret.count >= 32 else {
            throw KeySetError.weakSecret
        }
        let algorithm = entry["alg"] as? String ?? "HS256"
        let digest: DigestAlgorithm
        switch algorithm {
        case "HS256": digest = .sha256
        case "HS384": digest = .sha384
        case "HS512": digest = .sha512
        default: throw KeySetError.unsupportedAlgorithm(algorithm)
        }
        await collection.add(hmac: HMACKey(from: secret), digestAlgorithm: digest, kid: JWKIdentifier(string: kid))
        return (kid, algorithm)
    }

    private static func defaultAlgorithm(of jwk: JWK) -> JWK.Algorithm? {
        switch (jwk.keyType, jwk.curve?.rawValue) {
        case (.rsa, _): .rs256
        case (.ecdsa, "P-256"): .es256
        case (.ecdsa, "P-384"): .es384
        case (.ecdsa, "P-521"): .es512
        case (.octetKeyPair, _): .eddsa
        default: nil
        }
    }

    /// The asymmetric algorithms a key of the set may have.
    static let supported: Set<String> = [
        "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA",
    ]
}

/// Why a JSON Web Key Set could not be used.
enum KeySetError: Error, CustomStringConvertible {
    case notAKeySet
    case noUsableKey([String])
    case missingKeyID
    case unsupportedAlgorithm(String)
    case weakSecret

    var description: String {
        switch self {
        case .notAKeySet: "not a JSON Web Key Set ({\"keys\": [...]})"
        case .noUsableKey(let skipped):
            "no key that verifies signatures" + (skipped.isEmpty ? "" : " (\(skipped.joined(separator: "; ")))")
        case .missingKeyID: "the key has no kid"
        case .unsupportedAlgorithm(let name): "unsupported algorithm \(name)"
        case .weakSecret: "a symmetric key needs a base64url 'k' of at least 32 bytes"
        }
    }
}
