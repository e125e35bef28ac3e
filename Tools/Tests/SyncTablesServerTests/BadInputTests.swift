import Testing

@Suite("Bad input gets a clear 4xx")
struct BadInputTests {
    @Test("A body over the size limit gets 413")
    func oversizedBodyIsRefused() async throws {
        try await ServerHarness.with({ $0.maxBodySize = 1000 }) { server in
            let big = "{\"id\":\"a\",\"text\":\"" + String(repeating: "x", count: 2000) + "\"}"
            let response = try await server.send(.post, "/tables/todo", json: big)
            #expect(response.status == 413)
            #expect(try response.errorMessage()?.contains("1000") == true)
            #expect(try await server.send(.get, "/tables/todo/a").status == 404)
        }
    }

    @Test("A body just under the limit is accepted")
    func bodyWithinLimitIsAccepted() async throws {
        try await ServerHarness.with({ $0.maxBodySize = 1000 }) { server in
            let body = "{\"id\":\"a\",\"text\":\"" + String(repeating: "x", count: 900) + "\"}"
            let response = try await server.send(.post, "/tables/todo", json: body)
            #expect(response.status == 201)
        }
    }

    @Test("Malformed JSON gets 400", arguments: ["{", "{\"id\":}", "not json", "{\"a\":1}}", "\u{0}"])
    func malformedJSONIsRefused(body: String) async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.post, "/tables/todo", json: body)
            #expect(response.status == 400)
            #expect(try response.errorMessage() != nil)
        }
    }

    @Test(
        "A body that is not an object gets 400",
        arguments: ["[]", "[{\"id\":\"a\"}]", "42", "\"text\"", "null", "true"])
    func nonObjectBodyIsRefused(body: String) async throws {
        try await ServerHarness.with { server in
            let post = try await server.send(.post, "/tables/todo", json: body)
            #expect(post.status == 400)
            #expect(try post.errorMessage() == "The request body must be a JSON object.")
        }
    }

    @Test("Deeply nested JSON is refused with 400, not a crash")
    func deeplyNestedJSONIsRefused() async throws {
        try await ServerHarness.with({ $0.maxBodySize = 1_000_000 }) { server in
            let body =
                "{\"id\":\"a\",\"x\":" + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
                + "}"
            let response = try await server.send(.post, "/tables/todo", json: body)
            #expect(response.status == 400)
            #expect(try response.errorMessage()?.hasPrefix("The request body is not valid JSON") == true)
        }
    }

    @Test("A JSON object with a repeated property name is refused with 400")
    func duplicateKeysAreRefused() async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.post, "/tables/todo", json: #"{"id":"a","id":"b"}"#)
            #expect(response.status == 400)
        }
    }

    @Test("An empty insert body gets 400")
    func emptyBodyIsRefused() async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.post, "/tables/todo", body: [])
            #expect(response.status == 400)
        }
    }

    @Test(
        "Table names that are not identifiers get 400 and never reach the store",
        arguments: [
            "todo;DROP%20TABLE%20x", "1abc", "a-b", "a%20b", "%27%3B--", "t%C3%A9", String(repeating: "a", count: 129),
        ]
    )
    func invalidTableNameIsRefused(name: String) async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.get, "/tables/\(name)")
            #expect(response.status == 400)
            #expect(try response.errorMessage()?.hasPrefix("Invalid table name") == true)
        }
    }

    @Test("System table names (leading __) are not reachable: 404")
    func systemTableIsNotFound() async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.get, "/tables/__operations")
            #expect(response.status == 404)
            #expect(try response.errorMessage() == "The table '__operations' does not exist.")
        }
    }

    @Test("A malformed percent escape in the query string gets 400")
    func malformedQueryEscapeIsRefused() async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.get, "/tables/todo?$filter=%ZZ")
            #expect(response.status == 400)
        }
    }

    @Test(
        "Invalid $top and $skip values get 400",
        arguments: ["$top=-1", "$top=abc", "$skip=-5", "$skip=1.5", "$top=99999999999999999999"])
    func invalidPagingIsRefused(query: String) async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.get, "/tables/todo?\(query)")
            #expect(response.status == 400)
            #expect(try response.errorMessage() != nil)
        }
    }

    @Test("An invalid item id in the path gets 400", arguments: ["%22quoted%22", "a%2Bb", "%2E%2E", "a%5Cb", "%20%20"])
    func invalidPathIDIsRefused(id: String) async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.get, "/tables/todo/\(id)")
            #expect(response.status == 400)
        }
    }
}
