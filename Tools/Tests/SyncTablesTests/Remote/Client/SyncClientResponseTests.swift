import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// How a ``SyncClient`` reads what the server answers, checked on a real server for each transport.
@Suite("SyncClient responses")
struct SyncClientResponseTests {
    static let errorCases: [(TransportKind, Int)] = TransportKind.allCases.flatMap { kind in
        [400, 401, 403, 404, 405, 500].map { (kind, $0) }
    }

    @Test(arguments: errorCases)
    func errorStatusesBecomeHTTPStatusErrorWithTheServersMessage(kind: TransportKind, status: Int) async throws {
        let body = #"{"error":"status \#(status)"}"#
        try await ScriptedHTTPServer.with({ _ in .json(status, body) }) { server in
            let client = SyncClient(url: server.baseURL, transport: try kind.make())
            let error = await #expect(throws: HTTPStatusError.self) {
                try await client.lookup(table: "todo", id: "a")
            }
            #expect(error?.status == status)
            #expect(error?.message == "status \(status)")
            #expect(error?.body == Array(body.utf8))
            #expect(error?.serverItem == nil)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func anASPNETStyleMessageAndANonJSONErrorBodyAreBothKept(kind: TransportKind) async throws {
        try await ScriptedHTTPServer.with({ request in
            request.rawPath.hasSuffix("/json")
                ? .json(400, #"{"message":"bad request"}"#)
                : ScriptedReply(status: 502, body: "<html>proxy</html>")
        }) { server in
            let client = SyncClient(url: server.baseURL, transport: try kind.make())
            let json = await #expect(throws: HTTPStatusError.self) { try await client.lookup(table: "t", id: "json") }
            #expect(json?.message == "bad request")
            let html = await #expect(throws: HTTPStatusError.self) { try await client.lookup(table: "t", id: "html") }
            #expect(html?.status == 502)
            #expect(html?.message == nil)
            #expect(html?.body == Array("<html>proxy</html>".utf8))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func answers409And412CarryTheServerItemWithTheETagVersion(kind: TransportKind) async throws {
        try await ScriptedHTTPServer.with({ request in
            let status = request.method == "POST" ? 409 : 412
            return .json(status, #"{"id":"a","text":"server","version":"old"}"#, headers: [("ETag", #""v2""#)])
        }) { server in
            let client = SyncClient(url: server.baseURL, transport: try kind.make())
            let item = JSONObject(["id": .string("a"), "text": .string("client")])

            let conflict = await #expect(throws: HTTPStatusError.self) {
                try await client.insert(table: "todo", item: item)
            }
            let precondition = await #expect(throws: HTTPStatusError.self) {
                try await client.update(table: "todo", item: item, ifMatch: "v1")
            }

            #expect(conflict?.status == 409)
            #expect(conflict?.isConflict == true)
            #expect(conflict?.serverItem?["text"] == .string("server"))
            #expect(conflict?.serverItem?["version"] == .string("v2"))
            #expect(precondition?.status == 412)
            #expect(precondition?.serverItem?["version"] == .string("v2"))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func malformedJSONInASuccessResponseIsATypedErrorWithTheRawBody(kind: TransportKind) async throws {
        let bodies = ["/item/a": #"{"id":"a","#, "/item/b": "[1,2]", "/item/c": ""]
        try await ScriptedHTTPServer.with({ request in
            .json(200, bodies[request.rawPath.replacingOccurrences(of: "/tables", with: "")] ?? "")
        }) { server in
            let client = SyncClient(url: server.baseURL, transport: try kind.make())
            for (path, body) in bodies.sorted(by: { $0.key < $1.key }) {
                let id = String(path.split(separator: "/").last ?? "")
                let error = await #expect(throws: RemoteError.self) {
                    try await client.lookup(table: "item", id: id)
                }
                guard case .malformedResponse(let status, let rawBody, _)? = error else {
                    Issue.record("Expected malformedResponse for \(path), got \(String(describing: error))")
                    continue
                }
                #expect(status == 200)
                #expect(rawBody == Array(body.utf8))
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aQueryReadsABareArrayTheResultsAndCountEnvelopeAndTheNextLink(kind: TransportKind) async throws {
        try await ScriptedHTTPServer.with({ request in
            if request.rawQuery?.contains("inlinecount") == true {
                return .json(200, #"{"results":[{"id":"a"}],"count":7}"#)
            }
            let next = "http://127.0.0.1:1/tables/todo?$top=1&$skip=1; rel=next"
            return .json(200, #"[{"id":"a"},{"id":"b"}]"#, headers: [("Link", next)])
        }) { server in
            let client = SyncClient(url: server.baseURL, transport: try kind.make())
            var counted = TableQuery()
            counted.includeTotalCount = true

            let plain = try await client.query(table: "todo", queryString: "$top=2")
            let envelope = try await client.query(table: "todo", query: counted)

            #expect(plain.items.map { $0["id"] } == [.string("a"), .string("b")])
            #expect(plain.totalCount == nil)
            #expect(plain.nextLink?.absoluteString == "http://127.0.0.1:1/tables/todo?$top=1&$skip=1")
            #expect(envelope.items.count == 1)
            #expect(envelope.totalCount == 7)
            #expect(envelope.nextLink == nil)
            #expect(server.requests.map(\.rawQuery) == ["$top=2", "$inlinecount=allpages"])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aQueryWhoseItemsAreNotObjectsIsMalformed(kind: TransportKind) async throws {
        try await ScriptedHTTPServer.with({ _ in .json(200, #"[{"id":"a"}, 3]"#) }) { server in
            let client = SyncClient(url: server.baseURL, transport: try kind.make())
            await #expect(throws: RemoteError.self) { try await client.query(table: "todo", queryString: "") }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func afterA401TheRequestIsRetriedOnceWithTheRefreshedCredentials(kind: TransportKind) async throws {
        try await ScriptedHTTPServer.with({ request in
            request.header("X-ZUMO-AUTH") == "fresh" ? .json(200, #"{"id":"a"}"#) : .json(401, #"{"error":"expired"}"#)
        }) { server in
            let token = TokenBox("stale")
            let client = SyncClient(
                url: server.baseURL,
                transport: try kind.make(),
                requestDecorator: { request in request.headers["X-ZUMO-AUTH"] = token.value },
                onUnauthorized: {
                    token.value = "fresh"
                    return true
                }
            )

            let item = try await client.lookup(table: "todo", id: "a")

            #expect(item["id"] == .string("a"))
            #expect(server.requests.map { $0.header("X-ZUMO-AUTH") } == ["stale", "fresh"])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aSecond401OrARefreshThatDeclinesSurfacesThe401(kind: TransportKind) async throws {
        try await ScriptedHTTPServer.with({ _ in .json(401, #"{"error":"no"}"#) }) { server in
            let refreshes = TokenBox("")
            let retrying = SyncClient(
                url: server.baseURL, transport: try kind.make(),
                onUnauthorized: {
                    refreshes.value += "r"
                    return true
                })
            let declining = SyncClient(url: server.baseURL, transport: try kind.make(), onUnauthorized: { false })

            let first = await #expect(throws: HTTPStatusError.self) { try await retrying.lookup(table: "t", id: "a") }
            let second = await #expect(throws: HTTPStatusError.self) { try await declining.lookup(table: "t", id: "a") }

            #expect(first?.isUnauthorized == true)
            #expect(second?.status == 401)
            #expect(refreshes.value == "r")
            #expect(server.requests.count == 3)
        }
    }

    #if canImport(Glibc)
        @Test(arguments: TransportKind.allCases)
        func networkFailuresReachTheCallerAsTransportError(kind: TransportKind) async throws {
            let closed = try RefusingPort()
            let client = SyncClient(url: closed.baseURL, transport: try kind.make())
            let error = await #expect(throws: TransportError.self) { try await client.lookup(table: "t", id: "a") }
            #expect(error?.kind == .connectionFailed)
        }
    #endif
}

/// A string shared between a test and the hooks it installs.
final class TokenBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String

    init(_ value: String) {
        stored = value
    }

    var value: String {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
