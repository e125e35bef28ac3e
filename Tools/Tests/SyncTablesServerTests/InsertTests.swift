import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

@Suite("POST /tables/{table} inserts")
struct InsertTests {
    @Test func insertReturns201WithTheStoredItemSystemPropertiesAndAQuotedETag() async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.post, "/tables/todo", json: #"{"id":"a","text":"Buy milk","n":2}"#)
            #expect(response.status == 201)
            let item = try response.object()
            #expect(item["text"] == .string("Buy milk"))
            #expect(item["n"] == .integer(2))
            #expect(item["deleted"] == .bool(false))
            let version = try #require(item.string("version"))
            #expect(response.header("ETag") == "\"\(version)\"")
            let createdAt = try #require(item.string("createdAt"))
            #expect(item.string("updatedAt") == createdAt)
            #expect(createdAt.hasSuffix("Z") && createdAt.count == "2024-05-01T10:00:00.000Z".count)
        }
    }

    @Test(arguments: [
        #"{"text":"x"}"#, #"{"id":null,"text":"x"}"#, #"{"id":"","text":"x"}"#,
    ])
    func insertWithoutAnIdWithNullOrWithAnEmptyIdGetsAGeneratedId(body: String) async throws {
        try await ServerHarness.with { server in
            let item = try await server.insert("todo", body)
            let id = try #require(item.string("id"))
            #expect(id.count == 36 && id.allSatisfy { $0.isHexDigit || $0 == "-" } && id == id.lowercased())
            #expect(try await server.send(.get, "/tables/todo/\(id)").status == 200)
        }
    }

    @Test func insertingAnExistingIdGets409WithTheCurrentServerItemAndItsETag() async throws {
        try await ServerHarness.with { server in
            let stored = try await server.insert("todo", #"{"id":"a","text":"first"}"#)
            let response = try await server.send(.post, "/tables/todo", json: #"{"id":"a","text":"second"}"#)
            #expect(response.status == 409)
            #expect(try response.object() == stored)
            #expect(response.header("ETag") == "\"\(stored.string("version") ?? "")\"")
        }
    }

    @Test(arguments: [
        "createdAt", "updatedAt", "deleted", "CREATEDAT", "UpdatedAt", "Deleted",
    ])
    func reservedPropertiesAreRefusedWith400InAnyLetterCase(name: String) async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.post, "/tables/todo", json: "{\"id\":\"a\",\"\(name)\":false}")
            #expect(response.status == 400)
            #expect(try response.errorMessage() == "Cannot update item with property '\(name)' as it is reserved")
            #expect(try await server.send(.get, "/tables/todo/a").status == 404)
        }
    }

    @Test func aVersionInAnInsertBodyIsIgnored() async throws {
        try await ServerHarness.with { server in
            let item = try await server.insert("todo", #"{"id":"a","version":"client-made"}"#)
            #expect(item.string("version") != "client-made")
        }
    }

    @Test(
        "Invalid ids are refused with 400",
        arguments: [
            #"{"id":"   "}"#, #"{"id":"a/b"}"#, #"{"id":"a+b"}"#, #"{"id":"a?b"}"#, #"{"id":"a\"b"}"#,
            #"{"id":"a\\b"}"#,
            #"{"id":"a`b"}"#, #"{"id":"."}"#, #"{"id":".."}"#, #"{"id":"a\u0001b"}"#, #"{"id":"a\u007fb"}"#,
            #"{"id":42}"#, #"{"id":true}"#, #"{"id":{"x":1}}"#,
        ])
    func invalidIDIsRefused(body: String) async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.post, "/tables/todo", json: body)
            #expect(response.status == 400)
            #expect(try response.errorMessage() != nil)
        }
    }

    @Test func a255CharacterIdIsValidAnd256IsNot() async throws {
        try await ServerHarness.with { server in
            let ok = try await server.send(
                .post, "/tables/todo", json: "{\"id\":\"\(String(repeating: "a", count: 255))\"}")
            let tooLong = try await server.send(
                .post, "/tables/todo", json: "{\"id\":\"\(String(repeating: "b", count: 256))\"}")
            #expect(ok.status == 201)
            #expect(tooLong.status == 400)
        }
    }

    @Test func idsAreCaseSensitiveSoUpperAndLowerAAreTwoRows() async throws {
        try await ServerHarness.with { server in
            try await server.insert("todo", #"{"id":"a"}"#)
            let upper = try await server.send(.post, "/tables/todo", json: #"{"id":"A"}"#)
            #expect(upper.status == 201)
        }
    }

    @Test func idsWithSpacesAndUnicodeRoundTripThroughAPercentEncodedPath() async throws {
        try await ServerHarness.with { server in
            try await server.insert("todo", #"{"id":"my item é"}"#)
            let response = try await server.send(.get, "/tables/todo/my%20item%20%C3%A9")
            #expect(response.status == 200)
            #expect(try response.object().string("id") == "my item é")
        }
    }

    @Test func everyWriteGetsANewVersion() async throws {
        try await ServerHarness.with { server in
            let first = try await server.insert("todo", #"{"id":"a","n":1}"#)
            let second = try await server.send(.patch, "/tables/todo/a", json: #"{"n":2}"#).object()
            let third = try await server.send(.patch, "/tables/todo/a", json: #"{"n":3}"#).object()
            let versions = [first, second, third].compactMap { $0.string("version") }
            #expect(Set(versions).count == 3)
        }
    }
}
