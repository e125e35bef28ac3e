import Foundation
import Logging
@_spi(SyncTablesTools) import SyncTablesCore
import Testing

@testable import SyncTablesServer

@Suite("Request ids")
struct RequestIDTests {
    @Test func aSaneRequestIDIsEchoedAndInTheRequestsLogLines() async throws {
        let logs = CapturedLogs()
        try await ServerHarness.with({
            $0.logger = logs.logger()
            $0.logRequests = true
        }) { server in
            let response = try await server.send(.get, "/tables/todo", headers: ["X-Request-Id": "abc-123"])

            #expect(response.header("X-Request-Id") == "abc-123")
            let line = try #require(logs.all.first { $0.message.hasPrefix("GET /tables/todo ") })
            #expect(line.metadata["hb.request.id"] == "abc-123")
        }
    }

    @Test func withoutASaneRequestIDTheServerMakesOne() async throws {
        let logs = CapturedLogs()
        try await ServerHarness.with({
            $0.logger = logs.logger()
            $0.logRequests = true
        }) { server in
            let none = try await server.send(.get, "/tables/todo")
            let spaced = try await server.send(.get, "/tables/todo", headers: ["X-Request-Id": "has space"])
            let long = try await server.send(
                .get, "/tables/todo", headers: ["X-Request-Id": String(repeating: "x", count: 200)])

            let ids = [none, spaced, long].compactMap { $0.header("X-Request-Id") }
            #expect(ids.count == 3)
            #expect(Set(ids).count == 3)
            #expect(ids.allSatisfy { UUID(uuidString: $0) != nil })
            let logged = logs.all.filter { $0.message.hasPrefix("GET /tables/todo ") }.compactMap {
                $0.metadata["hb.request.id"].map { "\($0)" }
            }
            #expect(Set(logged) == Set(ids))
        }
    }

    @Test func anUnauthorizedRequestIsLoggedWithItsIDAndReason() async throws {
        let logs = CapturedLogs()
        try await ServerHarness.with({
            $0.logger = logs.logger()
            $0.authToken = "s3cret"
        }) { server in
            let response = try await server.send(.get, "/tables/todo", headers: ["X-Request-Id": "r-401"])
            #expect(response.status == 401)
            let line = try #require(logs.all.first { $0.message == "Unauthorized" })
            #expect(line.metadata["hb.request.id"] == "r-401")
            #expect(line.metadata["reason"] == "missing")
        }
    }
}
