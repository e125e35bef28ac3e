import Testing

@testable import SyncTablesServer

@Suite("ZUMO-API-VERSION check")
struct ProtocolVersionTests {
    @Test func everyVersion2Dot0DotXInTheHeaderIsAccepted() async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.get, "/tables/todo", apiVersion: "2.0.17")
            #expect(response.status == 200)
        }
    }

    @Test func aVersionInTheZumoApiVersionQueryParameterIsAcceptedInAnyCase() async throws {
        try await ServerHarness.with { server in
            let lower = try await server.send(.get, "/tables/todo?zumo-api-version=2.0.0", apiVersion: nil)
            let upper = try await server.send(.get, "/tables/todo?ZUMO-API-VERSION=2.0.0", apiVersion: nil)
            #expect(lower.status == 200)
            #expect(upper.status == 200)
        }
    }

    @Test func aMissingVersionIsRefusedWith400AndTheReferenceMessage() async throws {
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

    @Test(arguments: ["1.0.0", "3.0.0", "2.1.0", "2.0", "2.0.x", "2.0.0.1", "v2.0.0", ""])
    func wrongVersionsAreRefusedWith400(version: String) async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.get, "/tables/todo", apiVersion: version)
            #expect(response.status == 400)
            #expect(try response.errorMessage() == APIVersion.invalidMessage)
        }
    }

    @Test func aWrongVersionInTheQueryIsRefused() async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.get, "/tables/todo?zumo-api-version=3.0.0", apiVersion: nil)
            #expect(response.status == 400)
        }
    }
}
