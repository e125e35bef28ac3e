import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// A typed item for the online table tests.
struct RemoteTodo: SyncItem, Equatable {
    var id: String
    var text: String
    var complete: Bool
    var version: String?
    var updatedAt: Date?
}

/// ``RemoteTable`` against a real server on 127.0.0.1: typed CRUD and queries, one request each.
@Suite("RemoteTable")
struct RemoteTableTests {
    @Test func insertGeneratesAnIdForAnEmptyOneAndReturnsTheServersCopy() async throws {
        try await ScriptedHTTPServer.with({ request in
            let sent = try JSONObject(parsing: request.body)
            var stored = sent
            stored["updatedAt"] = .string("2024-05-01T10:00:00.000Z")
            return .json(201, stored.jsonString, headers: [("ETag", #""1""#)])
        }) { server in
            let todos = RemoteTable<RemoteTodo>(client: SyncClient(url: server.baseURL), name: "todo")

            let stored = try await todos.insert(RemoteTodo(id: "", text: "Buy milk", complete: false))

            let sent = try JSONObject(parsing: try #require(server.requests.first).body)
            guard case .string(let id)? = sent["id"] else {
                Issue.record("no id was sent")
                return
            }
            #expect(ItemID.isValid(id))
            #expect(stored.id == id)
            #expect(stored.version == "1")
            #expect(stored.updatedAt == Date(timeIntervalSince1970: 1_714_557_600))
            #expect(server.requests.first?.header("X-ZUMO-FEATURES") == "TT")
        }
    }

    @Test func updateAndDeleteAreGuardedByTheItemsVersion() async throws {
        try await ScriptedHTTPServer.with({ request in
            request.method == "DELETE"
                ? ScriptedReply(status: 204) : .json(200, request.bodyText, headers: [("ETag", #""v2""#)])
        }) { server in
            let todos = RemoteTable<RemoteTodo>(client: SyncClient(url: server.baseURL), name: "todo")
            let item = RemoteTodo(id: "a", text: "x", complete: true, version: "v1")

            let updated = try await todos.update(item)
            try await todos.delete(updated)
            try await todos.delete(id: "a")

            #expect(updated.version == "v2")
            #expect(server.requests.map(\.method) == ["PATCH", "DELETE", "DELETE"])
            #expect(server.requests.map { $0.header("If-Match") } == [#""v1""#, #""v2""#, nil])
        }
    }

    @Test func lookupReturnsNilFor404AndTheItemOtherwise() async throws {
        try await ScriptedHTTPServer.with({ request in
            request.rawPath.hasSuffix("/a")
                ? .json(200, #"{"id":"a","text":"x","complete":false}"#)
                : .json(404, #"{"error":"The item does not exist"}"#)
        }) { server in
            let todos = RemoteTable<RemoteTodo>(client: SyncClient(url: server.baseURL), name: "todo")
            let found = try await todos.lookup(id: "a")
            let missing = try await todos.lookup(id: "missing")
            #expect(found == RemoteTodo(id: "a", text: "x", complete: false))
            #expect(missing == nil)
        }
    }

    @Test func aConflictSurfacesTheServersItem() async throws {
        let reply = ScriptedReply.json(
            412, #"{"id":"a","text":"server","complete":false}"#, headers: [("ETag", #""v9""#)])
        try await ScriptedHTTPServer.with({ _ in reply }) { server in
            let todos = RemoteTable<RemoteTodo>(client: SyncClient(url: server.baseURL), name: "todo")
            let error = await #expect(throws: HTTPStatusError.self) {
                try await todos.update(RemoteTodo(id: "a", text: "client", complete: true, version: "v1"))
            }
            #expect(error?.serverItem?["version"] == .string("v9"))
        }
    }

    @Test func aServerItemThatDoesNotFitTheTypeIsATypedErrorThatKeepsTheItem() async throws {
        try await ScriptedHTTPServer.with({ _ in .json(200, #"{"id":"a","text":5}"#) }) { server in
            let todos = RemoteTable<RemoteTodo>(client: SyncClient(url: server.baseURL), name: "todo")
            let error = await #expect(throws: RemoteError.self) { try await todos.lookup(id: "a") }
            guard case .undecodableItem(let item, _)? = error else {
                Issue.record("expected undecodableItem, got \(String(describing: error))")
                return
            }
            #expect(item["text"] == .integer(5))
        }
    }

    @Test func aTypedQuerySendsFilterOrderbySkipAndTopAsOData() async throws {
        try await ScriptedHTTPServer.with({ _ in .json(200, #"[{"id":"a","text":"it's","complete":false}]"#) }) {
            server in
            let todos = RemoteTable<RemoteTodo>(client: SyncClient(url: server.baseURL), name: "todo")
            let filter = FilterExpression.and(
                .comparison(.equal, .property("complete"), .value(.bool(false))),
                .function(.startsWith, [.property("text"), .value(.string("it's"))])
            )

            let items = try await todos.query(
                filter: filter,
                orderBy: [
                    SyncTablesCore.SortDescriptor("text", ascending: false), SyncTablesCore.SortDescriptor("id"),
                ],
                top: 10,
                skip: 5
            )

            #expect(items.map(\.text) == ["it's"])
            #expect(
                server.requests.first?.rawQuery
                    == "$filter=((complete%20eq%20false)%20and%20startswith(text%2C'it''s'))"
                    + "&$orderby=text%20desc%2Cid&$skip=5&$top=10"
            )
        }
    }

    @Test func aQueryFollowsNextLinksOnItsOwnHostUntilTopItemsArrived() async throws {
        try await ScriptedHTTPServer.with({ request in
            let skip = Int(request.rawQuery?.components(separatedBy: "$skip=").last?.prefix { $0.isNumber } ?? "0") ?? 0
            let items = (skip..<(skip + 2)).map { #"{"id":"i\#($0)","text":"t","complete":false}"# }
            let next = "/tables/todo?$top=2&$skip=\(skip + 2); rel=next"
            return .json(200, "[" + items.joined(separator: ",") + "]", headers: [("Link", next)])
        }) { server in
            let todos = RemoteTable<RemoteTodo>(client: SyncClient(url: server.baseURL), name: "todo")

            let items = try await todos.query(odataFilter: nil, top: 5, skip: 0)

            #expect(items.map(\.id) == ["i0", "i1", "i2", "i3", "i4"])
            #expect(server.requests.count == 3)
            #expect(server.requests.dropFirst().allSatisfy { $0.header("X-ZUMO-FEATURES") == "TT,TQ,LH" })
        }
    }

    @Test func aNextLinkToAnotherHostIsNotFollowed() async throws {
        let reply = ScriptedReply.json(
            200,
            #"[{"id":"a","text":"t","complete":false}]"#,
            headers: [("Link", "http://elsewhere.invalid/tables/todo?$skip=1; rel=next")]
        )
        try await ScriptedHTTPServer.with({ _ in reply }) { server in
            let todos = RemoteTable<RemoteTodo>(client: SyncClient(url: server.baseURL), name: "todo")
            let items = try await todos.query()
            #expect(items.count == 1)
            #expect(server.requests.count == 1)
        }
    }

    @Test func aFilterOnANameThatIsNoODataIdentifierIsRejectedBeforeSending() async throws {
        try await ScriptedHTTPServer.with({ _ in .json(200, "[]") }) { server in
            let todos = RemoteTable<RemoteTodo>(client: SyncClient(url: server.baseURL), name: "todo")
            let filter = FilterExpression.comparison(.equal, .property("x) or (1 eq 1"), .value(.null))
            await #expect(throws: ODataError.self) { try await todos.query(filter: filter) }
            #expect(server.requests.isEmpty)
        }
    }
}
