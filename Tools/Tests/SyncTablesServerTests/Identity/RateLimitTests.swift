import Foundation
import SyncTables
import Testing

@testable import SyncTablesServer

@Suite("Rate limit")
struct RateLimitTests {
    /// A server verifying `identity`'s tokens, limited to 1 request per second with bursts of 3, on `clock`.
    private func withLimitedServer(
        _ identity: TestIdentity, clock: ManualSyncClock, _ body: (ServerHarness) async throws -> Void
    ) async throws {
        let path = try identity.writeKeySet()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await ServerHarness.with(
            {
                $0.authentication = .jwt(JWTVerification(keys: .file(path: path)))
                $0.rateLimit = RateLimit(requestsPerSecond: 1, burst: 3)
                $0.clock = clock
            }, body)
    }

    private func token(_ identity: TestIdentity, _ subject: String, clock: ManualSyncClock) async throws
        -> [String: String]
    {
        let token = try await identity.token(
            "ES256", TestIdentity.claims(subject: subject, expires: clock.now() + 3600))
        return ["Authorization": "Bearer \(token)"]
    }

    @Test func aCallerBeyondItsBurstGets429WithRetryAfterAndOthersDoNot() async throws {
        let identity = try TestIdentity()
        let clock = ManualSyncClock()
        try await withLimitedServer(identity, clock: clock) { server in
            let alice = try await token(identity, "alice", clock: clock)
            let bob = try await token(identity, "bob", clock: clock)
            for _ in 0..<3 {
                #expect(try await server.send(.get, "/tables/todo", headers: alice).status == 200)
            }

            let limited = try await server.send(.get, "/tables/todo", headers: alice)
            #expect(limited.status == 429)
            #expect(limited.header("Retry-After") == "1")
            #expect(try limited.errorMessage()?.contains("Too many requests") == true)
            #expect(try await server.send(.get, "/tables/todo", headers: bob).status == 200)

            clock.advance(by: .seconds(1))
            #expect(try await server.send(.get, "/tables/todo", headers: alice).status == 200)
            #expect(try await server.send(.get, "/tables/todo", headers: alice).status == 429)
            #expect(try await server.metrics().value("sync_server_rate_limited_total") == 2)
        }
    }

    @Test func requestsWithoutASubjectAreLimitedByClientAddress() async throws {
        let clock = ManualSyncClock()
        try await ServerHarness.with({
            $0.rateLimit = RateLimit(requestsPerSecond: 0.5, burst: 2)
            $0.clock = clock
        }) { server in
            #expect(try await server.send(.get, "/tables/todo").status == 200)
            #expect(try await server.send(.get, "/tables/todo").status == 200)
            let limited = try await server.send(.get, "/tables/todo")
            #expect(limited.status == 429)
            #expect(limited.header("Retry-After") == "2")
            #expect(try await server.send(.get, "/health", apiVersion: nil).status == 200, "probes are never limited")
        }
    }

    @Test func aBatchCountsAsOneRequest() async throws {
        let clock = ManualSyncClock()
        try await ServerHarness.with({
            $0.rateLimit = RateLimit(requestsPerSecond: 1, burst: 2)
            $0.clock = clock
        }) { server in
            let operations = (0..<5).map { #"{"method":"POST","table":"todo","body":{"id":"i\#($0)"}}"# }
            let batch = #"{"operations":[\#(operations.joined(separator: ","))]}"#
            let response = try await server.send(.post, "/sync/batch", json: batch)
            #expect(response.status == 200, "\(response.text)")
            #expect(try await server.send(.get, "/tables/todo").ids().count == 5)
            #expect(try await server.send(.get, "/tables/todo").status == 429)
        }
    }

    @Test func theBucketRefillsAtTheConfiguredRate() {
        let clock = ManualSyncClock()
        let limiter = RateLimiter(limit: RateLimit(requestsPerSecond: 4, burst: 2), clock: clock)
        #expect(limiter.take(for: "a") == nil)
        #expect(limiter.take(for: "a") == nil)
        #expect(limiter.take(for: "a") == .milliseconds(250))
        clock.advance(by: .milliseconds(250))
        #expect(limiter.take(for: "a") == nil)
        #expect(limiter.take(for: "b") == nil)
    }
}
