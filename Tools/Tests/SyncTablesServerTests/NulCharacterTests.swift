import Testing

/// U+0000 (NUL) in strings: PostgreSQL's text cannot hold it, so the server refuses it with a 400 on both
/// backends (the suite runs on SQLite and, with `SYNC_TEST_BACKEND=postgres`, on PostgreSQL) and stores nothing.
@Suite("NUL in strings gets a clear 400 on every backend")
struct NulCharacterTests {
    @Test(arguments: [
        #"{"id":"a","text":"x\u0000y"}"#, #"{"id":"a","te\u0000xt":"x"}"#, #"{"id":"a","tags":["ok","\u0000"]}"#,
        #"{"id":"a","meta":{"note":{"deep":"\u0000"}}}"#, #"{"id":"a","meta":{"k\u0000":1}}"#,
    ])
    func anInsertWithNULAnywhereGets400AndStoresNothing(body: String) async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.post, "/tables/todo", json: body)
            #expect(response.status == 400, "\(response.text)")
            #expect(try response.errorMessage()?.contains("U+0000") == true, "\(response.text)")
            #expect(try await server.send(.get, "/tables/todo/a").status == 404)
        }
    }

    @Test func anUpdateWithNULGets400AndLeavesTheRowAsItWas() async throws {
        try await ServerHarness.with { server in
            let created = try await server.insert("todo", #"{"id":"a","text":"before"}"#)
            let response = try await server.send(.patch, "/tables/todo/a", json: #"{"text":"after\u0000"}"#)
            #expect(response.status == 400, "\(response.text)")
            let stored = try await server.send(.get, "/tables/todo/a").object()
            #expect(stored.string("text") == "before")
            #expect(stored.string("version") == created.string("version"))
        }
    }

    @Test(arguments: ["/tables/todo?$filter=text%20eq%20'a%00b'", "/tables/todo/a%00b", "/tables/to%00do"])
    func nulInAFilterAnIdOrATableNameGets400(path: String) async throws {
        try await ServerHarness.with { server in
            try await server.insert("todo", #"{"id":"a","text":"x"}"#)
            let response = try await server.send(.get, path)
            #expect(response.status == 400, "\(response.text)")
            #expect(try response.errorMessage()?.contains("U+0000") == true, "\(response.text)")
        }
    }
}
