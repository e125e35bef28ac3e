import Testing

@Suite("Bad input gets a clear 4xx")
struct BadInputTests {
    @Test func aBodyOverTheSizeLimitGets413() async throws {
        try await ServerHarness.with({ $0.maxBodySize = 1000 }) { server in
            let big = "{\"id\":\"a\",\"text\":\"" + String(repeating: "x", count: 2000) + "\"}"
            let response = try await server.send(.post, "/tables/todo", json: big)
            #expect(response.status == 413)
            #expect(try response.errorMessage()?.contains("1000") == true)
            #expect(try await server.send(.get, "/tables/todo/a").status == 404)
        }
    }

    @Test func aBodyJustUnderTheLimitIsAccepted() async throws {
        try await ServerHarness.with({ $0.maxBodySize = 1000 }) { server in
            let body = "{\"id\":\"a\",\"text\":\"" + String(repeating: "x", count: 900) + "\"}"
            let response = try await server.send(.post, "/tables/todo", json: body)
            #expect(response.status == 201)
        }
    }

    @Test(arguments: ["{", "{\"id\":}", "not json", "{\"a\":1}}", "\u{0}"])
    func malformedJSONGets400(body: String) async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.post, "/tables/todo", json: body)
            #expect(response.status == 400)
            #expect(try response.errorMessage() != nil)
        }
    }

    @Test(arguments: ["[]", "[{\"id\":\"a\"}]", "42", "\"text\"", "null", "true"])
    func aBodyThatIsNotAnObjectGets400(body: String) async throws {
        try await ServerHarness.with { server in
            let post = try await server.send(.post, "/tables/todo", json: body)
            #expect(post.status == 400)
            #expect(try post.errorMessage() == "The request body must be a JSON object.")
        }
    }

    @Test func deeplyNestedJSONIsRefusedWith400NotACrash() async throws {
        try await ServerHarness.with({ $0.maxBodySize = 1_000_000 }) { server in
            let body =
                "{\"id\":\"a\",\"x\":" + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
                + "}"
            let response = try await server.send(.post, "/tables/todo", json: body)
            #expect(response.status == 400)
            #expect(try response.errorMessage()?.hasPrefix("The request body is not valid JSON") == true)
        }
    }

    @Test func aJSONObjectWithARepeatedPropertyNameIsRefusedWith400() async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.post, "/tables/todo", json: #"{"id":"a","id":"b"}"#)
            #expect(response.status == 400)
        }
    }

    @Test func anEmptyInsertBodyGets400() async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.post, "/tables/todo", body: [])
            #expect(response.status == 400)
        }
    }

    @Test(arguments: [
        "todo;DROP%20TABLE%20x", "1abc", "a-b", "a%20b", "%27%3B--", "t%C3%A9", String(repeating: "a", count: 129),
    ]
    )
    func tableNamesThatAreNotIdentifiersGet400AndNeverReachTheStore(name: String) async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.get, "/tables/\(name)")
            #expect(response.status == 400)
            #expect(try response.errorMessage()?.hasPrefix("Invalid table name") == true)
        }
    }

    @Test func systemTableNamesStartingWithTwoUnderscoresGet404() async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.get, "/tables/__operations")
            #expect(response.status == 404)
            #expect(try response.errorMessage() == "The table '__operations' does not exist.")
        }
    }

    @Test func aMalformedPercentEscapeInTheQueryStringGets400() async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.get, "/tables/todo?$filter=%ZZ")
            #expect(response.status == 400)
        }
    }

    @Test(arguments: ["$top=-1", "$top=abc", "$skip=-5", "$skip=1.5", "$top=99999999999999999999"])
    func invalidTopAndSkipValuesGet400(query: String) async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.get, "/tables/todo?\(query)")
            #expect(response.status == 400)
            #expect(try response.errorMessage() != nil)
        }
    }

    @Test(arguments: ["%22quoted%22", "a%2Bb", "%2E%2E", "a%5Cb", "%20%20"])
    func anInvalidItemIdInThePathGets400(id: String) async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.get, "/tables/todo/\(id)")
            #expect(response.status == 400)
        }
    }
}
