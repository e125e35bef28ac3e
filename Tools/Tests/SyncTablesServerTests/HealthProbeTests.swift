import Foundation
import SlowLink
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// `/health` and `/ready`, the probes a load balancer asks (draining after SIGTERM is in
/// ``GracefulShutdownTests``).
@Suite("Load balancer probes")
struct HealthProbeTests {
    @Test func healthAndReadyAnswer200WithoutTokenOrVersionOtherMethodsGet405() async throws {
        try await ServerHarness.with({ $0.authToken = "secret" }) { harness in
            let health = try await harness.send(.get, "/health", apiVersion: nil)
            #expect(health.status == 200)
            #expect(try health.object().string("status") == "alive")
            let ready = try await harness.send(.get, "/ready", apiVersion: nil)
            #expect(ready.status == 200)
            #expect(try ready.object().string("status") == "ready")
            let posted = try await harness.send(.post, "/ready", json: "{}", apiVersion: nil)
            #expect(posted.status == 405)
            #expect(posted.header("Allow") == "GET, HEAD")
            // The tables still need the token.
            #expect(try await harness.send(.get, "/tables/todo").status == 401)
        }
    }

    @Test(.enabled(if: TestBackend.isPostgres))
    func readyAnswers503NamingTheCauseWhenThePostgreSQLSchemaIsGone() async throws {
        let database = try TestBackend.freshPostgresDatabase()
        try await ServerHarness.with({ $0.storage = .postgres(database) }) { harness in
            try await harness.insert("todo", #"{"id":"a"}"#)
            try await TestBackend.dropSchema(of: database)
            let ready = try await harness.send(.get, "/ready", apiVersion: nil)
            #expect(ready.status == 503)
            #expect(try ready.object().string("reason")?.contains("missing") == true, "\(ready.text)")
            #expect(try await harness.send(.get, "/health", apiVersion: nil).status == 200)
        }
    }

    @Test(.enabled(if: TestBackend.isPostgres))
    func readyAnswers503OncePostgreSQLCannotBeReachedWhileHealthStays200() async throws {
        var database = try TestBackend.freshPostgresDatabase()
        let direct = database
        let proxy = try await SlowLinkProxy(
            upstreamHost: database.host, upstreamPort: database.port, link: SlowLinkConfiguration(oneWayDelay: .zero))
        database.host = "127.0.0.1"
        database.port = proxy.port
        do {
            try await ServerHarness.with({ $0.storage = .postgres(database) }) { harness in
                #expect(try await harness.send(.get, "/ready", apiVersion: nil).status == 200)
                try await proxy.close()
                let ready = try await harness.send(.get, "/ready", apiVersion: nil)
                #expect(ready.status == 503)
                #expect(try ready.object().string("status") == "unavailable", "\(ready.text)")
                #expect(try await harness.send(.get, "/health", apiVersion: nil).status == 200)
            }
        } catch {
            try? await proxy.close()
            try? await TestBackend.dropSchema(of: direct)
            throw error
        }
        try await TestBackend.dropSchema(of: direct)
    }
}
