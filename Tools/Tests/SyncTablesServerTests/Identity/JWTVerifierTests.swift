import Foundation
import JWTKit
import Logging
import SyncTables
import Testing

@testable import SyncTablesServer

@Suite("JWT verifier")
struct JWTVerifierTests {
    private func verifier(_ path: String, issuer: String? = nil, audience: String? = nil) async throws -> JWTVerifier {
        try await JWTVerifier(
            verification: JWTVerification(keys: .file(path: path), issuer: issuer, audience: audience),
            clock: SystemSyncClock(), logger: Logger(label: "test"))
    }

    @Test func aValidTokenYieldsItsSubjectAndItsScalarClaimsAsText() async throws {
        let identity = try TestIdentity()
        let path = try identity.writeKeySet()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let verifier = try await verifier(path, issuer: "https://issuer.example/", audience: "sync-api")
        let token = try await identity.token(
            "RS256",
            TestIdentity.claims(
                subject: "alice", issuer: "https://issuer.example/", audience: "sync-api", text: ["team": "blue"]))

        let caller = try await verifier.verify(token)

        #expect(caller.subject == "alice")
        #expect(caller.claims["team"] == "blue")
        #expect(caller.claims["sub"] == "alice")
        #expect(caller.claims["iss"] == "https://issuer.example/")
        #expect(caller.claims["exp"] != nil)
    }

    @Test func numbersAndBooleansBecomeTextAndArraysAreLeftOut() throws {
        let json = #"{"sub":"bob","level":3,"ratio":0.5,"admin":true,"groups":["a","b"],"exp":1900000000}"#
        let claims = try JSONDecoder().decode(TokenClaims.self, from: Data(json.utf8))
        #expect(claims.text["level"] == "3")
        #expect(claims.text["ratio"] == "0.5")
        #expect(claims.text["admin"] == "true")
        #expect(claims.text["groups"] == nil)
        #expect(claims.subject == "bob")
    }

    @Test func aKeyWithoutAlgCannotBePinnedToAnotherAlgorithmByAToken() async throws {
        let identity = try TestIdentity()
        let path = try identity.writeKeySet()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let verifier = try await verifier(path)
        // The RSA key of the set has no "alg": a PS256 token naming it must not make it a PS256 key.
        let keys = JWTKeyCollection()
        await keys.add(pss: identity.rsa, digestAlgorithm: .sha256, kid: JWKIdentifier(string: TestIdentity.rsaKeyID))
        let pss = try await keys.sign(TestIdentity.claims(), kid: JWKIdentifier(string: TestIdentity.rsaKeyID))

        await #expect(throws: AuthenticationFailure.algorithm) { try await verifier.verify(pss) }
        #expect(try await verifier.verify(try await identity.token("RS256")).subject == "alice")
    }

    @Test func aKeySetURLMustBeHTTPSExceptOnLoopback() throws {
        #expect(throws: KeySetFetchError.self) {
            try KeySetFetcher.checkScheme(of: URL(string: "http://idp.example/jwks.json")!)
        }
        try KeySetFetcher.checkScheme(of: URL(string: "https://idp.example/jwks.json")!)
        try KeySetFetcher.checkScheme(of: URL(string: "http://127.0.0.1:8080/jwks.json")!)
    }

    @Test func aServerDoesNotStartWithoutItsKeys() async throws {
        var configuration = SyncServerConfiguration(storage: .inMemory)
        configuration.authentication = .jwt(JWTVerification(keys: .file(path: "/nonexistent/jwks.json")))
        await #expect(throws: KeySetFetchError.self) { _ = try await SyncServer(configuration: configuration) }
    }

    @Test func theAuthTokenShorthandSetsAndClearsAStaticToken() {
        var configuration = SyncServerConfiguration(storage: .inMemory, authToken: "s3cret")
        #expect(configuration.authToken == "s3cret")
        configuration.authToken = nil
        guard case .none = configuration.authentication else {
            Issue.record("expected no authentication")
            return
        }
        configuration.authentication = .jwt(JWTVerification(keys: .file(path: "keys.json")))
        configuration.authToken = nil
        guard case .jwt = configuration.authentication else {
            Issue.record("clearing the static token must leave JWT verification")
            return
        }
    }
}
