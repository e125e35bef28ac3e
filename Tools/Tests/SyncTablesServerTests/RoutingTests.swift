import HTTPTypes
import SyncTablesServerTesting
import Testing

@Suite("Routes, verbs and response headers")
struct RoutingTests {
    @Test(arguments: [HTTPMethodName.put, .delete, .patch])
    func unsupportedVerbsOnTheCollectionGet405(method: HTTPMethodName) async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(method.method, "/tables/todo", json: "{}")
            #expect(response.status == 405)
            #expect(response.header("Allow") == "GET, POST")
        }
    }

    @Test func putOnAnItemGets405() async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.put, "/tables/todo/a", json: "{\"id\":\"a\"}")
            #expect(response.status == 405)
            #expect(response.header("Allow") == "GET, PATCH, DELETE, POST")
        }
    }

    @Test func pathsOutsideTablesGet404WithAnErrorBody() async throws {
        try await ServerHarness.with { server in
            for path in ["/", "/api/x", "/tables", "/tables/todo/a/b"] {
                let response = try await server.send(.get, path)
                #expect(response.status == 404, "\(path)")
                #expect(try response.errorMessage() != nil)
            }
        }
    }

    @Test func responsesAreJSONAndNotCacheable() async throws {
        try await ServerHarness.with { server in
            let ok = try await server.send(.get, "/tables/todo")
            let error = try await server.send(.get, "/tables/todo/missing")
            for response in [ok, error] {
                #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
                #expect(response.header("Cache-Control") == "no-cache")
            }
        }
    }

    @Test func theTestControlAPIIsAbsentUnlessEnabled() async throws {
        try await ServerHarness.with({ $0.enableTestControls = false }) { server in
            #expect(server.server.testControls == nil)
            let response = try await server.send(.get, "/__test/requests")
            #expect(response.status == 404)
        }
    }
}

/// The verbs a parameterized test can name.
enum HTTPMethodName: String, CaseIterable, Sendable, CustomStringConvertible {
    case put, delete, patch

    var method: HTTPRequest.Method {
        switch self {
        case .put: .put
        case .delete: .delete
        case .patch: .patch
        }
    }

    var description: String { rawValue.uppercased() }
}
