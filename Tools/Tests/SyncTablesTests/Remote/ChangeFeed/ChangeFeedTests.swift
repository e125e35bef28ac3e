import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// ``SyncClient/changeFeed(tables:after:logger:)`` against a real Hummingbird server on 127.0.0.1 that serves
/// the capabilities document and a Server-Sent Events route written by each test, for each transport.
@Suite("Change feed")
struct ChangeFeedTests {
    @Test(arguments: TransportKind.allCases)
    func readsEveryEventKindAndSkipsUnknownAndMalformedOnes(kind: TransportKind) async throws {
        // Given a feed that sends every kind of event, with junk among them, a little apart
        try await StreamingHTTPServer.with(
            Self.feedServer { _, stop in
                .eventStream { writer in
                    try await writer.event("ready", id: "10", data: #"{"heartbeatSeconds":15}"#)
                    try await writer.event("change", id: "11", data: #"{"table":"notes"}"#)
                    await stop.sleep(for: .milliseconds(50))
                    try await writer.write("event: heartbeat\ndata: {}\n\n")
                    try await writer.write(": a comment\n\n")
                    try await writer.event("gossip", id: "12", data: "{}")
                    try await writer.event("change", id: "13", data: "not json")
                    try await writer.event("change", id: "14", data: #"{"table":"no-such table"}"#)
                    try await writer.event("change", id: "15", data: #"{"other":"todo"}"#)
                    // One event split across writes, with CRLF line endings
                    try await writer.write("event: change\r\nid: 16\r\nda")
                    await stop.sleep(for: .milliseconds(50))
                    try await writer.write("ta: {\"table\":\"todo\"}\r\n\r\n")
                    try await writer.event("reset", id: "17", data: #"{"reason":"history trimmed"}"#)
                    await Self.heartbeatsUntilStopped(&writer, stop)
                }
            }
        ) { server in
            let client = SyncClient(url: server.baseURL, transport: try kind.make())

            // When the client reads the feed up to the reset
            let feed = try #require(try await client.changeFeed())
            var events: [ChangeFeedEvent] = []
            for try await event in feed {
                events.append(event)
                if case .reset = event { break }
            }

            // Then it got the known events with their positions, in order, and nothing else
            #expect(
                events == [
                    .ready(position: "10"), .changed(table: "notes", position: "11"), .heartbeat,
                    .changed(table: "todo", position: "16"), .reset(position: "17"),
                ])
            #expect(feed.heartbeat == .seconds(15))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func sendsTheClientsHeadersTheLastEventIDAndTheSortedTables(kind: TransportKind) async throws {
        try await StreamingHTTPServer.with(
            Self.feedServer { _, _ in
                .eventStream { writer in try await writer.event("ready", id: "42", data: "{}") }
            }
        ) { server in
            // Given a client with a custom header and a decorator that adds a token
            let client = SyncClient(
                url: server.baseURL, transport: try kind.make(), headers: ["X-ZUMO-AUTH": "zumo-token"],
                requestDecorator: { request in request.headers["Authorization"] = "Bearer fresh" })

            // When it opens the feed for two tables after position 41
            let feed = try #require(try await client.changeFeed(tables: ["todo", "notes"], after: "41"))
            var events = feed.makeAsyncIterator()
            #expect(try await events.next() == .ready(position: "42"))

            // Then the request carries them all
            let request = try #require(server.requests.last)
            #expect(request.method == "GET")
            #expect(request.rawPath == "/sync/changes")
            #expect(request.rawQuery == "tables=notes,todo")
            #expect(request.header("Accept") == "text/event-stream")
            #expect(request.header("Last-Event-ID") == "41")
            #expect(request.header("X-ZUMO-AUTH") == "zumo-token")
            #expect(request.header("Authorization") == "Bearer fresh")
            #expect(request.header("ZUMO-API-VERSION") == "2.0.0")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aFeedForEveryTableFromNowSendsNoTablesAndNoLastEventID(kind: TransportKind) async throws {
        try await StreamingHTTPServer.with(
            Self.feedServer { _, _ in .eventStream { writer in try await writer.event("ready", id: "1", data: "{}") } }
        ) { server in
            let client = SyncClient(url: server.baseURL, transport: try kind.make())

            let feed = try #require(try await client.changeFeed(tables: nil, after: nil))
            var events = feed.makeAsyncIterator()
            _ = try await events.next()

            let request = try #require(server.requests.last)
            #expect(request.rawQuery == nil)
            #expect(request.header("Last-Event-ID") == nil)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func returnsNilWhenTheServerOffersNoFeed(kind: TransportKind) async throws {
        // Given a server whose capabilities name batches only
        let document = #"{"batch":{"path":"/sync/batch","maxOperations":10,"maxBytes":1000}}"#
        try await StreamingHTTPServer.with(
            Self.feedServer(capabilities: document) { _, _ in .eventStream { _ in } }
        ) { server in
            let client = SyncClient(url: server.baseURL, transport: try kind.make())

            // When the client asks for the feed, then there is none, and it did not ask the server for one
            #expect(try await client.changeFeed() == nil)
            #expect(server.requests.map(\.rawPath) == ["/sync/capabilities"])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func tooManyFeedsThrowsHTTPStatusError503WithRetryAfter(kind: TransportKind) async throws {
        try await StreamingHTTPServer.with(
            Self.feedServer { _, _ in .json(503, #"{"error":"too many feeds"}"#, headers: [("Retry-After", "7")]) }
        ) { server in
            let client = SyncClient(url: server.baseURL, transport: try kind.make())

            let error = await #expect(throws: HTTPStatusError.self) { try await client.changeFeed() }

            #expect(error?.status == 503)
            #expect(error?.retryAfter == .seconds(7))
            #expect(error?.message == "too many feeds")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func anUnauthorizedFeedIsRetriedOnceWithFreshCredentialsThenThrows401(kind: TransportKind) async throws {
        try await StreamingHTTPServer.with(
            Self.feedServer { _, _ in .json(401, #"{"error":"expired"}"#) }
        ) { server in
            // Given a client whose credentials refresh says "try again"
            let refreshes = TestCounter()
            let client = SyncClient(
                url: server.baseURL, transport: try kind.make(),
                onUnauthorized: {
                    refreshes.increment()
                    return true
                })

            // When the feed answers 401 every time
            let error = await #expect(throws: HTTPStatusError.self) { try await client.changeFeed() }

            // Then it asked twice, refreshed once, and surfaced the 401
            #expect(error?.isUnauthorized == true)
            #expect(refreshes.value == 1)
            #expect(server.requests.filter { $0.rawPath == "/sync/changes" }.count == 2)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aFeedTheServerEndsThrowsConnectionLost(kind: TransportKind) async throws {
        // Given a feed that closes normally after its ready event
        try await StreamingHTTPServer.with(
            Self.feedServer { _, _ in .eventStream { writer in try await writer.event("ready", id: "1", data: "{}") } }
        ) { server in
            let client = SyncClient(url: server.baseURL, transport: try kind.make())
            let feed = try #require(try await client.changeFeed())
            var events = feed.makeAsyncIterator()
            #expect(try await events.next() == .ready(position: "1"))

            // Then the next read throws: a feed never ends normally
            let error = await #expect(throws: TransportError.self) { try await events.next() }
            #expect(error?.kind == .connectionLost)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aFeedWhoseConnectionDropsThrowsConnectionLost(kind: TransportKind) async throws {
        // Given a feed whose connection drops in the middle of an event
        try await StreamingHTTPServer.with(
            Self.feedServer { _, stop in
                .eventStream { writer in
                    try await writer.event("ready", id: "1", data: "{}")
                    try await writer.write("event: change\nid: 2\ndata: {\"table\":\"no")
                    await stop.sleep(for: .milliseconds(50))
                    try await writer.dropConnection()
                }
            }
        ) { server in
            let client = SyncClient(url: server.baseURL, transport: try kind.make())
            let feed = try #require(try await client.changeFeed())
            var events = feed.makeAsyncIterator()
            #expect(try await events.next() == .ready(position: "1"))

            // Then the half event is not delivered, and reading throws
            let error = await #expect(throws: TransportError.self) { try await events.next() }
            #expect(error?.kind == .connectionLost)
        }
    }

    @Test func anUnreachableServerThrowsTransportError() async throws {
        #if canImport(Glibc)
            let closed = try RefusingPort()
            let client = SyncClient(url: closed.baseURL, transport: try TransportKind.curl.make())

            let error = await #expect(throws: TransportError.self) { try await client.changeFeed() }

            #expect(error?.kind == .connectionFailed)
        #endif
    }

    @Test func anInvalidTableNameIsRefusedBeforeAnythingIsSent() async throws {
        try await StreamingHTTPServer.with(
            Self.feedServer { _, _ in .eventStream { _ in } }
        ) { server in
            let client = SyncClient(url: server.baseURL, transport: try TransportKind.curl.make())

            await #expect(throws: RemoteError.invalidTableName("no tables")) {
                try await client.changeFeed(tables: ["todo", "no tables"])
            }
            #expect(!server.requests.contains { $0.rawPath == "/sync/changes" })
        }
    }

    // MARK: The capability

    @Test func theCapabilitiesDocumentsChangesEntryBecomesTheFeedCapability() throws {
        let document = try JSONValue(parsing: Array(Self.capabilitiesDocument.utf8))

        let extensions = ServerExtensions(document: document)

        #expect(extensions.changes == ChangeFeedCapability(path: "/sync/changes", heartbeat: .seconds(15)))
    }

    @Test(arguments: [
        #"{}"#,
        #"{"changes":true}"#,
        #"{"changes":{"heartbeatSeconds":15}}"#,
        #"{"changes":{"path":"sync/changes","heartbeatSeconds":15}}"#,
        #"{"changes":{"path":"/sync/changes?x=1","heartbeatSeconds":15}}"#,
        #"{"changes":{"path":"/sync/changes","heartbeatSeconds":"15"}}"#,
        #"{"changes":{"path":"/sync/changes","heartbeatSeconds":0}}"#,
        #"{"changes":{"path":"/sync/changes"}}"#,
    ])
    func aMissingOrMalformedChangesEntryOffersNoFeed(document: String) throws {
        let extensions = ServerExtensions(document: try JSONValue(parsing: Array(document.utf8)))

        #expect(extensions.changes == nil)
    }

    @Test func forgettingBatchesKeepsTheFeed() async throws {
        let client = SyncClient(url: URL(string: "http://127.0.0.1:9")!)
        let document = try JSONValue(parsing: Array(Self.capabilitiesDocument.utf8))
        client.discoveredExtensions.withLock { $0 = ServerExtensions(document: document) }

        client.stopBatching()

        #expect(client.knownExtensions?.batch == nil)
        #expect(client.knownExtensions?.changes?.path == "/sync/changes")
    }

    // MARK: The test server

    static let capabilitiesDocument = """
        {"batch":{"path":"/sync/batch","maxOperations":100,"maxBytes":1048576},
         "changes":{"path":"/sync/changes","heartbeatSeconds":15}}
        """

    /// A server answering `GET /sync/capabilities` with `capabilities` and `/sync/changes` with `changes`.
    static func feedServer(
        capabilities: String = capabilitiesDocument,
        changes: @escaping @Sendable (ReceivedRequest, StopFlag) async throws -> StreamedReply
    ) -> @Sendable (ReceivedRequest, StopFlag) async throws -> StreamedReply {
        { request, stop in
            switch request.rawPath {
            case "/sync/capabilities": .json(200, capabilities)
            case "/sync/changes": try await changes(request, stop)
            default: .json(404, #"{"error":"not found"}"#)
            }
        }
    }

    /// A heartbeat every 50 ms until the connection or the test ends (at most a minute).
    static func heartbeatsUntilStopped(_ writer: inout StreamWriter, _ stop: StopFlag) async {
        let deadline = ContinuousClock.now + .seconds(60)
        while !stop.isSet, ContinuousClock.now < deadline {
            do { try await writer.event("heartbeat", data: "{}") } catch { return }
            await stop.sleep(for: .milliseconds(50))
        }
    }
}
