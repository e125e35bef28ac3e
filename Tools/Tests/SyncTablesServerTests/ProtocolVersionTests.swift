import Testing

@testable import SyncTablesServer

@Suite("ZUMO-API-VERSION check")
struct ProtocolVersionTests {
    @Test("A 2.0.x version in the header is accepted")
    func headerVersionIsAccepted() async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.get, "/tables/todo", apiVersion: "2.0.17")
            #expect(response.status == 200)
        }
    }

    @Test("A version in the zumo-api-version query parameter is accepted, name in any case")
    func queryVersionIsAccepted() async throws {
        try await ServerHarness.with { server in
            let lower = try await server.send(.get, "/tables/todo?zumo-api-version=2.0.0", apiVersion: nil)
            let upper = try await server.send(.get, "/tables/todo?ZUMO-API-VERSION=2.0.0", apiVersion: nil)
            #expect(lower.status == 200)
            #expect(upper.status == 200)
        }
    }

    @Test("A missing version is refused with 400 and the reference message")
    func missingVersionIsRefused() async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.get, "/tables/todo", apiVersion: nil)
            #expect(response.status == 400)
            #expect(try response.errorMessage() == APIVersion.invalidMessage)
            #expect(
                APIVersion.invalidMessage
                    == "An invalid API version was specified in the request, this request needs to specify a ZUMO-API-VERSION of 2.0.0."
            )
        }
    }

    @Test(
        "Wrong versions are refused with 400",
        arguments: ["1.0.0", "3.0.0", "2.1.0", "2.0", "2.0.x", "2.0.0.1", "v2.0.0", ""])
    func wrongVersionIsRefused(version: String) async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.get, "/tables/todo", apiVersion: version)
            #expect(response.status == 400)
            #expect(try response.errorMessage() == APIVersion.invalidMessage)
        }
    }

    @Test("A wrong version in the query is refused")
    func wrongQueryVersionIsRefused() async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.get, "/tables/todo?zumo-api-version=3.0.0", apiVersion: nil)
            #expect(response.status == 400)
        }
    }
}
