import Foundation
import Testing

@testable import SyncTablesServer

@Suite("Prometheus metrics")
struct MetricsTests {
    @Test func requestsAreCountedByMethodAndStatusClassWithTheirLatency() async throws {
        try await ServerHarness.with { server in
            try await server.insert("todo", #"{"id":"a"}"#)
            _ = try await server.send(.get, "/tables/todo")
            _ = try await server.send(.get, "/tables/todo/missing")

            let metrics = try await server.metrics()

            #expect(metrics.value("sync_server_requests_total", ["method": "POST", "status": "2xx"]) == 1)
            #expect(metrics.value("sync_server_requests_total", ["method": "GET", "status": "2xx"]) == 1)
            #expect(metrics.value("sync_server_requests_total", ["method": "GET", "status": "4xx"]) == 1)
            #expect(metrics.value("sync_server_request_duration_seconds_count", ["method": "GET"]) == 2)
        }
    }

    @Test func staticTokenFailuresAreCountedByReason() async throws {
        try await ServerHarness.with({ $0.authToken = "s3cret" }) { server in
            _ = try await server.send(.get, "/tables/todo")
            _ = try await server.send(.get, "/tables/todo", headers: ["Authorization": "Bearer nope"])
            _ = try await server.send(.get, "/tables/todo", headers: ["Authorization": "Bearer s3cret"])

            let metrics = try await server.metrics()

            #expect(metrics.value("sync_server_auth_failures_total", ["reason": "missing"]) == 1)
            #expect(metrics.value("sync_server_auth_failures_total", ["reason": "wrong_token"]) == 1)
            #expect(metrics.value("sync_server_requests_total", ["status": "4xx"]) == 2)
        }
    }

    @Test func aMetricsTokenProtectsTheEndpoint() async throws {
        try await ServerHarness.with({ $0.metrics = .token("m3trics") }) { server in
            let refused = try await server.send(.get, "/metrics", apiVersion: nil)
            #expect(refused.status == 401)
            let allowed = try await server.send(
                .get, "/metrics", headers: ["Authorization": "Bearer m3trics"], apiVersion: nil)
            #expect(allowed.status == 200)
            #expect(allowed.header("Content-Type")?.hasPrefix("text/plain") == true)
        }
    }

    @Test func metricsCanBeTurnedOff() async throws {
        try await ServerHarness.with({ $0.metrics = .off }) { server in
            let response = try await server.send(.get, "/metrics", apiVersion: nil)
            #expect(response.status == 404)
        }
    }

    @Test func twoServersInOneProcessCountApart() async throws {
        try await ServerHarness.with { first in
            try await ServerHarness.with { second in
                _ = try await first.send(.get, "/tables/todo")
                _ = try await first.send(.get, "/tables/todo")
                _ = try await second.send(.get, "/tables/todo")
                #expect(
                    try await first.metrics().value("sync_server_requests_total", ["method": "GET", "status": "2xx"])
                        == 2)
                #expect(
                    try await second.metrics().value("sync_server_requests_total", ["method": "GET", "status": "2xx"])
                        == 1)
            }
        }
    }
}
