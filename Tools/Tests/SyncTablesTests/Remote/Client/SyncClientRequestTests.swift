import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// What a ``SyncClient`` puts on the wire, checked on a real server for each transport.
@Suite("SyncClient requests")
struct SyncClientRequestTests {
    @Test(arguments: TransportKind.allCases)
    func everyRequestCarriesTheProtocolIdentificationAndConfiguredHeaders(kind: TransportKind) async throws {
        try await ScriptedHTTPServer.with({ _ in .json(200, "[]") }) { server in
            // Given a client with an installation id and a custom header
            let client = SyncClient(
                configuration: .init(
                    url: server.baseURL, headers: ["X-ZUMO-AUTH": "token"], installationID: "install-1"),
                transport: try kind.make()
            )

            // When it queries as offline sync, incrementally
            _ = try await client.query(table: "todo", query: TableQuery(), features: [.incrementalPull, .offline])

            // Then the request carries every header the protocol requires
            let request = try #require(server.requests.first)
            #expect(request.header("ZUMO-API-VERSION") == "2.0.0")
            #expect(request.header("X-ZUMO-FEATURES") == "OL,IP")
            #expect(request.header("X-ZUMO-VERSION")?.hasPrefix("ZUMO/2.0 (lang=Swift; os=") == true)
            #expect(request.header("User-Agent")?.hasPrefix("SyncTables/") == true)
            #expect(request.header("X-ZUMO-INSTALLATION-ID") == "install-1")
            #expect(request.header("X-ZUMO-AUTH") == "token")
            #expect(request.header("Accept") == "application/json")
            #expect(request.header("Content-Type") == nil)
            #expect(request.header("If-Match") == nil)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func insertPostsTheItemWithoutSystemPropertiesAndReadsTheVersionFromTheETag(kind: TransportKind) async throws {
        let reply = #"{"id":"a","text":"x","version":"body-version","createdAt":"2024-05-01T10:00:00.000Z"}"#
        try await ScriptedHTTPServer.with({ _ in .json(201, reply, headers: [("ETag", #""etag-version""#)]) }) {
            server in
            let client = SyncClient(url: server.baseURL, transport: try kind.make())
            let item = JSONObject([
                "id": .string("a"), "text": .string("x"), "Version": .string("old"),
                "createdAt": .string("2000-01-01T00:00:00Z"), "updatedAt": .null, "deleted": .bool(false),
            ])

            let stored = try await client.insert(table: "todo", item: item, features: .offline)

            let request = try #require(server.requests.first)
            #expect(request.method == "POST")
            #expect(request.rawPath == "/tables/todo")
            #expect(request.header("Content-Type") == "application/json")
            #expect(try JSONObject(parsing: request.body) == JSONObject(["id": .string("a"), "text": .string("x")]))
            #expect(stored["version"] == .string("etag-version"))
            #expect(stored["text"] == .string("x"))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func updateSendsPATCHToTheEscapedIdWithAnEscapedIfMatch(kind: TransportKind) async throws {
        let id = "a b:c'd#é%"
        try await ScriptedHTTPServer.with({ request in .json(200, request.bodyText) }) { server in
            let client = SyncClient(url: server.baseURL, transport: try kind.make())
            let item = JSONObject(["id": .string(id), "text": .string("y"), "version": .string(#"v"1"#)])

            let updated = try await client.update(table: "todo", item: item, ifMatch: #"v"1"#)

            let request = try #require(server.requests.first)
            #expect(request.method == "PATCH")
            #expect(request.rawPath == "/tables/todo/a%20b%3Ac%27d%23%C3%A9%25")
            #expect(request.header("If-Match") == #""v\"1""#)
            #expect(try JSONObject(parsing: request.body) == JSONObject(["id": .string(id), "text": .string("y")]))
            #expect(updated["text"] == .string("y"))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func updateWithoutAKnownVersionSendsNoIfMatch(kind: TransportKind) async throws {
        try await ScriptedHTTPServer.with({ request in .json(200, request.bodyText) }) { server in
            let client = SyncClient(url: server.baseURL, transport: try kind.make())
            let item = JSONObject(["id": .string("a")])
            _ = try await client.update(table: "todo", item: item, ifMatch: nil)
            _ = try await client.update(table: "todo", item: item, ifMatch: "")
            #expect(server.requests.count == 2)
            #expect(server.requests.allSatisfy { $0.header("If-Match") == nil })
        }
    }

    @Test(arguments: TransportKind.allCases)
    func deleteSendsIfMatchAndAcceptsBothAnItemAndAnEmpty204(kind: TransportKind) async throws {
        try await ScriptedHTTPServer.with({ request in
            request.rawPath.hasSuffix("/with-body")
                ? .json(200, #"{"id":"with-body","deleted":true}"#, headers: [("ETag", #""9""#)])
                : ScriptedReply(status: 204)
        }) { server in
            let client = SyncClient(url: server.baseURL, transport: try kind.make())

            let returned = try await client.delete(table: "todo", id: "with-body", ifMatch: "8")
            let empty = try await client.delete(table: "todo", id: "no-body", ifMatch: nil)

            #expect(returned?["version"] == .string("9"))
            #expect(empty == nil)
            #expect(server.requests.map(\.method) == ["DELETE", "DELETE"])
            #expect(server.requests[0].header("If-Match") == #""8""#)
            #expect(server.requests[0].body.isEmpty)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func lookupReadsOneItemAndUndeletePostsAnEmptyBodyToTheItem(kind: TransportKind) async throws {
        let reply = ScriptedReply.json(200, #"{"id":"a","version":"1"}"#, headers: [("ETag", #""2""#)])
        try await ScriptedHTTPServer.with({ _ in reply }) { server in
            let client = SyncClient(url: server.baseURL, transport: try kind.make())

            let found = try await client.lookup(table: "todo", id: "a")
            let restored = try await client.undelete(table: "todo", id: "a", ifMatch: "1")

            #expect(found["version"] == .string("2"))
            #expect(restored["version"] == .string("2"))
            #expect(server.requests.map(\.method) == ["GET", "POST"])
            #expect(server.requests.map(\.rawPath) == ["/tables/todo/a", "/tables/todo/a"])
            #expect(server.requests[1].header("Content-Length") == "0")
            #expect(server.requests[1].header("If-Match") == #""1""#)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aBaseURLWithAPathKeepsIt(kind: TransportKind) async throws {
        try await ScriptedHTTPServer.with({ _ in .json(200, "[]") }) { server in
            let client = SyncClient(url: server.baseURL.appendingPathComponent("app/"), transport: try kind.make())
            _ = try await client.query(table: "todo", queryString: "")
            #expect(server.requests.first?.rawPath == "/app/tables/todo")
        }
    }

    @Test func badTableNamesIdsAndItemsFailBeforeAnyRequest() async throws {
        try await ScriptedHTTPServer.with({ _ in .json(200, "{}") }) { server in
            let client = SyncClient(url: server.baseURL)
            await #expect(throws: RemoteError.invalidTableName("todo; DROP TABLE x")) {
                try await client.lookup(table: "todo; DROP TABLE x", id: "a")
            }
            await #expect(throws: RemoteError.self) { try await client.lookup(table: "todo", id: "a/b") }
            await #expect(throws: RemoteError.self) { try await client.delete(table: "todo", id: "", ifMatch: nil) }
            await #expect(throws: RemoteError.missingItemID) {
                try await client.insert(table: "todo", item: JSONObject(["id": .integer(1)]))
            }
            #expect(server.requests.isEmpty)
        }
    }
}
