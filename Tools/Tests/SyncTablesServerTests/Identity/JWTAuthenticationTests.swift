import Foundation
import JWTKit
import Testing

@testable import SyncTablesServer

@Suite("JWT authentication")
struct JWTAuthenticationTests {
    /// Starts a server verifying tokens against `identity`'s key set file.
    private func withJWTServer(
        _ identity: TestIdentity, issuer: String? = "https://issuer.example/", audience: String? = "sync-api",
        _ body: (ServerHarness) async throws -> Void
    ) async throws {
        let path = try identity.writeKeySet()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await ServerHarness.with(
            {
                $0.authentication = .jwt(
                    JWTVerification(
                        keys: .file(path: path), issuer: issuer, audience: audience, minimumReloadInterval: .zero))
            }, body)
    }

    private static func good() -> TokenClaims {
        TestIdentity.claims(issuer: "https://issuer.example/", audience: "sync-api")
    }

    @Test func everyBadTokenIsAnswered401WithAChallengeAndNothingElse() async throws {
        let identity = try TestIdentity()
        let stranger = ES256PrivateKey()
        let now = Date()
        let bad: [(reason: String, headers: [String: String])] = [
            ("missing", [:]),
            ("malformed", ["Authorization": "Bearer not.a-token"]),
            ("algorithm", ["Authorization": "Bearer " + (try TestIdentity.unsecured(kid: TestIdentity.ecKeyID))]),
            (
                "signature",
                [
                    "Authorization": "Bearer "
                        + (try await TestIdentity.token(signedBy: stranger, kid: TestIdentity.ecKeyID, Self.good()))
                ]
            ),
            (
                "expired",
                [
                    "Authorization": "Bearer "
                        + (try await identity.token(
                            "ES256",
                            TestIdentity.claims(
                                issuer: "https://issuer.example/", audience: "sync-api", expires: now - 120)))
                ]
            ),
            (
                "not_yet_valid",
                [
                    "Authorization": "Bearer "
                        + (try await identity.token(
                            "EdDSA",
                            TestIdentity.claims(
                                issuer: "https://issuer.example/", audience: "sync-api", notBefore: now + 300)))
                ]
            ),
            (
                "issuer",
                [
                    "Authorization": "Bearer "
                        + (try await identity.token(
                            "RS256", TestIdentity.claims(issuer: "https://evil.example/", audience: "sync-api")))
                ]
            ),
            (
                "audience",
                [
                    "Authorization": "Bearer "
                        + (try await identity.token(
                            "HS256", TestIdentity.claims(issuer: "https://issuer.example/", audience: "other-api")))
                ]
            ),
            (
                "unknown_key",
                [
                    "Authorization": "Bearer "
                        + (try await TestIdentity.token(signedBy: stranger, kid: "nobody", Self.good()))
                ]
            ),
            ("algorithm", ["Authorization": "Bearer " + (try await identity.hs256SignedWithTheRSAPublicKey())]),
            (
                "subject",
                [
                    "Authorization": "Bearer "
                        + (try await identity.token(
                            "ES256",
                            TestIdentity.claims(subject: nil, issuer: "https://issuer.example/", audience: "sync-api")))
                ]
            ),
        ]
        try await withJWTServer(identity) { server in
            for (reason, headers) in bad {
                let response = try await server.send(.get, "/tables/todo", headers: headers)
                #expect(response.status == 401, "\(reason)")
                let challenge = try #require(response.header("WWW-Authenticate"), "\(reason)")
                #expect(challenge.hasPrefix("Bearer "), "\(reason)")
                #expect(challenge.contains(#"error="invalid_token""#) == (reason != "missing"), "\(reason)")
                #expect(try response.object().keys.sorted() == ["error"], "\(reason)")
                #expect(try response.errorMessage() == "Unauthorized: a valid token is required.", "\(reason)")
            }
            let metrics = try await server.metrics()
            #expect(metrics.value("sync_server_auth_failures_total") == Double(bad.count))
            for reason in Set(bad.map(\.reason)) {
                let expected = bad.filter { $0.reason == reason }.count
                #expect(
                    metrics.value("sync_server_auth_failures_total", ["reason": reason]) == Double(expected),
                    "\(reason)")
            }
        }
    }

    @Test func aHS256TokenSignedWithTheRSAPublicKeyAsSecretIsRefused() async throws {
        let identity = try TestIdentity()
        try await withJWTServer(identity) { server in
            let forged = try await identity.hs256SignedWithTheRSAPublicKey()
            let response = try await server.send(.get, "/tables/todo", headers: ["Authorization": "Bearer \(forged)"])
            #expect(response.status == 401)
            #expect(try await server.metrics().value("sync_server_auth_failures_total", ["reason": "algorithm"]) == 1)
        }
    }

    @Test(arguments: ["RS256", "ES256", "EdDSA", "HS256"])
    func aValidTokenOfEachAlgorithmIsAccepted(algorithm: String) async throws {
        let identity = try TestIdentity()
        try await withJWTServer(identity) { server in
            let token = try await identity.token(algorithm, Self.good())
            let bearer = try await server.send(.get, "/tables/todo", headers: ["Authorization": "Bearer \(token)"])
            let zumo = try await server.send(.get, "/tables/todo", headers: ["X-ZUMO-AUTH": token])
            #expect(bearer.status == 200, "\(bearer.text)")
            #expect(zumo.status == 200, "\(zumo.text)")
        }
    }

    @Test func aTokenWithinTheLeewayOfItsExpiryIsAccepted() async throws {
        let identity = try TestIdentity()
        try await withJWTServer(identity) { server in
            let claims = TestIdentity.claims(
                issuer: "https://issuer.example/", audience: "sync-api", expires: Date() - 20, notBefore: Date() + 20)
            let token = try await identity.token("ES256", claims)
            let response = try await server.send(.get, "/tables/todo", headers: ["Authorization": "Bearer \(token)"])
            #expect(response.status == 200)
        }
    }

    @Test func aBatchIsRefusedAsAWholeWithoutAValidToken() async throws {
        let identity = try TestIdentity()
        try await withJWTServer(identity) { server in
            let batch = #"{"operations":[{"method":"POST","table":"todo","body":{"id":"a"}}]}"#
            let response = try await server.send(.post, "/sync/batch", json: batch)
            #expect(response.status == 401)
            #expect(response.header("WWW-Authenticate") != nil)
            let token = try await identity.token("EdDSA", Self.good())
            let accepted = try await server.send(
                .post, "/sync/batch", json: batch, headers: ["Authorization": "Bearer \(token)"])
            #expect(accepted.status == 200, "\(accepted.text)")
        }
    }
}
