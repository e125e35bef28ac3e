import Foundation
import JWTKit
import SyncTables
import Testing

@testable import SyncTablesServer

@Suite("JWT key rotation")
struct KeyRotationTests {
    private static func bearer(_ token: String) -> [String: String] { ["Authorization": "Bearer \(token)"] }

    @Test func aKeyAddedToTheKeySetFileIsHonouredWithoutARestart() async throws {
        let identity = try TestIdentity()
        let path = try identity.writeKeySet()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await ServerHarness.with({
            $0.authentication = .jwt(JWTVerification(keys: .file(path: path), minimumReloadInterval: .zero))
        }) { server in
            let (jwk, key) = try TestIdentity.newECKey(kid: "ec-2")
            let token = try await TestIdentity.token(signedBy: key, kid: "ec-2")
            #expect(try await server.send(.get, "/tables/todo", headers: Self.bearer(token)).status == 401)

            try identity.keySetJSON(including: [jwk]).write(to: URL(fileURLWithPath: path))

            #expect(try await server.send(.get, "/tables/todo", headers: Self.bearer(token)).status == 200)
        }
    }

    @Test func unknownKeyIDsReloadTheKeysAtMostOncePerInterval() async throws {
        let identity = try TestIdentity()
        let provider = KeySetServer()
        provider.publish(try identity.keySetJSON())
        let clock = ManualSyncClock()
        try await provider.run { url in
            try await ServerHarness.with({
                $0.authentication = .jwt(JWTVerification(keys: .url(url), minimumReloadInterval: .seconds(30)))
                $0.clock = clock
            }) { server in
                #expect(provider.fetches == 1)
                let stranger = ES256PrivateKey()
                for attempt in 0..<20 {
                    let forged = try await TestIdentity.token(signedBy: stranger, kid: "made-up-\(attempt)")
                    #expect(try await server.send(.get, "/tables/todo", headers: Self.bearer(forged)).status == 401)
                }
                #expect(provider.fetches == 1, "no reload within 30 s of the last one")

                let (jwk, key) = try TestIdentity.newECKey(kid: "ec-2")
                provider.publish(try identity.keySetJSON(including: [jwk]))
                clock.advance(by: .seconds(31))
                let token = try await TestIdentity.token(signedBy: key, kid: "ec-2")
                #expect(try await server.send(.get, "/tables/todo", headers: Self.bearer(token)).status == 200)
                #expect(provider.fetches == 2)
                #expect(try await server.send(.get, "/tables/todo", headers: Self.bearer(token)).status == 200)
                #expect(provider.fetches == 2)
            }
        }
    }

    @Test func aWithdrawnKeyStopsWorkingAtTheNextRefresh() async throws {
        let identity = try TestIdentity()
        let provider = KeySetServer()
        let (jwk, key) = try TestIdentity.newECKey(kid: "ec-old")
        provider.publish(try identity.keySetJSON(including: [jwk]))
        let clock = ManualSyncClock()
        try await provider.run { url in
            try await ServerHarness.with({
                $0.authentication = .jwt(JWTVerification(keys: .url(url), refreshInterval: .seconds(3600)))
                $0.clock = clock
            }) { server in
                let token = try await TestIdentity.token(
                    signedBy: key, kid: "ec-old", TestIdentity.claims(expires: clock.now() + 7200))
                #expect(try await server.send(.get, "/tables/todo", headers: Self.bearer(token)).status == 200)

                provider.publish(try identity.keySetJSON())
                clock.advance(by: .seconds(3601))

                #expect(try await server.send(.get, "/tables/todo", headers: Self.bearer(token)).status == 401)
            }
        }
    }

    @Test(.enabled(if: TestBackend.isPostgres), .timeLimit(.minutes(2)))
    func aKeyRotatedInTheSharedKeySetFileIsHonouredByEveryInstance() async throws {
        let identity = try TestIdentity()
        let path = try identity.writeKeySet()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = try TestBackend.freshPostgresDatabase()
        let url = try #require(TestBackend.postgresURL)
        let arguments = [
            "--database", url, "--database-schema", database.schema, "--pool-size", "2", "--jwt-keys", path,
            "--jwt-reload-interval", "0",
        ]
        do {
            let (_, ended) = try await ChildServers.with(count: 2, arguments: arguments) { servers in
                let (jwk, key) = try TestIdentity.newECKey(kid: "ec-rotated")
                let token = try await TestIdentity.token(signedBy: key, kid: "ec-rotated")
                let old = try await identity.token("ES256")
                for server in servers {
                    #expect(try await server.send(.get, "/tables/todo", headers: Self.bearer(old)).status == 200)
                    #expect(try await server.send(.get, "/tables/todo", headers: Self.bearer(token)).status == 401)
                }

                try identity.keySetJSON(including: [jwk]).write(to: URL(fileURLWithPath: path))

                for (index, server) in servers.enumerated() {
                    let created = try await server.send(
                        .post, "/tables/todo", json: #"{"id":"from-\#(index)"}"#, headers: Self.bearer(token))
                    #expect(created.status == 201, "\(created.text)")
                }
            }
            #expect(ended == [.exited(0), .exited(0)])
        } catch {
            try? await TestBackend.dropSchema(of: database)
            throw error
        }
        try await TestBackend.dropSchema(of: database)
    }
}
