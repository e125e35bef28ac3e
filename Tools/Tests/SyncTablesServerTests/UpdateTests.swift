import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("PATCH /tables/{table}/{id} merges")
struct UpdateTests {
    @Test func patchMergesTheBodyIntoTheStoredItemAndReturnsItWithANewETag() async throws {
        try await ServerHarness.with { server in
            let stored = try await server.insert("todo", #"{"id":"a","text":"x","n":1}"#)
            let response = try await server.send(.patch, "/tables/todo/a", json: #"{"id":"a","n":2,"extra":null}"#)
            #expect(response.status == 200)
            let item = try response.object()
            #expect(item["text"] == .string("x"))
            #expect(item["n"] == .integer(2))
            #expect(item["extra"] == .null)
            #expect(item["createdAt"] == stored["createdAt"])
            #expect(item.string("updatedAt")! > stored.string("updatedAt")!)
            #expect(response.header("ETag") == "\"\(item.string("version")!)\"")
            #expect(try await server.send(.get, "/tables/todo/a").object() == item)
        }
    }

    @Test func patchWithAMatchingIfMatchSucceeds() async throws {
        try await ServerHarness.with { server in
            let stored = try await server.insert("todo", #"{"id":"a","n":1}"#)
            let etag = "\"\(stored.string("version")!)\""
            let response = try await server.send(
                .patch, "/tables/todo/a", json: #"{"n":2}"#, headers: ["If-Match": etag])
            #expect(response.status == 200)
        }
    }

    @Test func patchWithAStaleIfMatchGets412WithTheServerItemAndChangesNothing() async throws {
        try await ServerHarness.with { server in
            let stored = try await server.insert("todo", #"{"id":"a","n":1}"#)
            let response = try await server.send(
                .patch, "/tables/todo/a", json: #"{"n":2}"#, headers: ["If-Match": "\"stale\""])
            #expect(response.status == 412)
            #expect(try response.object() == stored)
            #expect(response.header("ETag") == "\"\(stored.string("version")!)\"")
            #expect(try await server.send(.get, "/tables/todo/a").object() == stored)
        }
    }

    @Test func ifMatchWithoutQuotesAndIfMatchStarBothMatch() async throws {
        try await ServerHarness.with { server in
            let stored = try await server.insert("todo", #"{"id":"a","n":1}"#)
            let bare = try await server.send(
                .patch, "/tables/todo/a", json: #"{"n":2}"#, headers: ["If-Match": stored.string("version")!])
            #expect(bare.status == 200)
            let star = try await server.send(.patch, "/tables/todo/a", json: #"{"n":3}"#, headers: ["If-Match": "*"])
            #expect(star.status == 200)
        }
    }

    @Test func escapedQuotesInIfMatchAreUnescapedBeforeComparing() async throws {
        try await ServerHarness.with { server in
            let controls = try server.controls
            try await controls.seed(
                table: "todo", items: [JSONObject(["id": .string("a"), "version": .string("v\"1")])])
            let ok = try await server.send(
                .patch, "/tables/todo/a", json: #"{"n":1}"#, headers: ["If-Match": #""v\"1""#])
            #expect(ok.status == 200)
        }
    }

    @Test func ifMatchOnAMissingRowGets404() async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(
                .patch, "/tables/todo/nope", json: #"{"n":2}"#, headers: ["If-Match": "*"])
            #expect(response.status == 404)
            #expect(try response.errorMessage() == "The item does not exist")
        }
    }

    @Test func aBodyVersionThatDiffersWithoutIfMatchGets409WithTheServerItem() async throws {
        try await ServerHarness.with { server in
            let stored = try await server.insert("todo", #"{"id":"a","n":1}"#)
            let response = try await server.send(.patch, "/tables/todo/a", json: #"{"n":2,"version":"old"}"#)
            #expect(response.status == 409)
            #expect(try response.object() == stored)
            #expect(response.header("ETag") == "\"\(stored.string("version")!)\"")
        }
    }

    @Test func aBodyVersionThatMatchesWithoutIfMatchSucceedsAndIsNotStoredAsData() async throws {
        try await ServerHarness.with { server in
            let stored = try await server.insert("todo", #"{"id":"a","n":1}"#)
            let body = "{\"n\":2,\"version\":\"\(stored.string("version")!)\"}"
            let response = try await server.send(.patch, "/tables/todo/a", json: body)
            #expect(response.status == 200)
            #expect(try response.object().string("version") != stored.string("version"))
        }
    }

    @Test func aBodyIdDifferentFromThePathIdGets400() async throws {
        try await ServerHarness.with { server in
            try await server.insert("todo", #"{"id":"a"}"#)
            let response = try await server.send(.patch, "/tables/todo/a", json: #"{"id":"b","n":2}"#)
            #expect(response.status == 400)
            #expect(try response.errorMessage() == "The item ID and querystring ID did not match")
        }
    }

    @Test func patchOfAnUnknownIdGets404() async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.patch, "/tables/todo/nope", json: #"{"n":2}"#)
            #expect(response.status == 404)
        }
    }

    @Test func patchRefusesReservedPropertiesWith400() async throws {
        try await ServerHarness.with { server in
            try await server.insert("todo", #"{"id":"a"}"#)
            let response = try await server.send(
                .patch, "/tables/todo/a", json: #"{"UPDATEDAT":"2000-01-01T00:00:00Z"}"#)
            #expect(response.status == 400)
        }
    }

    @Test func patchWithANonObjectBodyGets400() async throws {
        try await ServerHarness.with { server in
            try await server.insert("todo", #"{"id":"a"}"#)
            #expect(try await server.send(.patch, "/tables/todo/a", json: "[1]").status == 400)
        }
    }

    @Test func whenIfMatchIsPresentItDecidesAndAStaleBodyVersionIsIgnored() async throws {
        try await ServerHarness.with { server in
            let stored = try await server.insert("todo", #"{"id":"a","n":1}"#)
            let etag = "\"\(stored.string("version")!)\""
            let response = try await server.send(
                .patch,
                "/tables/todo/a",
                json: #"{"n":2,"version":"stale"}"#,
                headers: ["If-Match": etag]
            )
            #expect(response.status == 200)
            #expect(try response.object()["n"] == .integer(2))
        }
    }
}
