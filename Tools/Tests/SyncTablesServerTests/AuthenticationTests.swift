import Testing

@Suite("Static token authentication")
struct AuthenticationTests {
    private func withTokenServer(_ body: (ServerHarness) async throws -> Void) async throws {
        try await ServerHarness.with({ $0.authToken = "s3cret" }, body)
    }

    @Test func aRequestWithoutTheTokenGets401() async throws {
        try await withTokenServer { server in
            let response = try await server.send(.get, "/tables/todo")
            #expect(response.status == 401)
            #expect(try response.errorMessage() != nil)
        }
    }

    @Test func aWrongTokenGets401() async throws {
        try await withTokenServer { server in
            let bearer = try await server.send(.get, "/tables/todo", headers: ["Authorization": "Bearer nope"])
            let zumo = try await server.send(.get, "/tables/todo", headers: ["X-ZUMO-AUTH": "nope"])
            #expect(bearer.status == 401)
            #expect(zumo.status == 401)
        }
    }

    @Test func theTokenIsAcceptedAsAuthorizationBearer() async throws {
        try await withTokenServer { server in
            let response = try await server.send(.get, "/tables/todo", headers: ["Authorization": "Bearer s3cret"])
            #expect(response.status == 200)
        }
    }

    @Test func theTokenIsAcceptedAsXZumoAuth() async throws {
        try await withTokenServer { server in
            let response = try await server.send(.get, "/tables/todo", headers: ["X-ZUMO-AUTH": "s3cret"])
            #expect(response.status == 200)
        }
    }

    @Test func withoutAConfiguredTokenEveryRequestIsAllowed() async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.get, "/tables/todo")
            #expect(response.status == 200)
        }
    }
}
