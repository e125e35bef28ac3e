import Foundation
import HTTPTypes
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// `GET /sync/changes` on one server (on the backend `SYNC_TEST_BACKEND` selects): the stream's shape, the
/// events of every kind of write in commit order, the `tables=` filter, and the feed switched off.
@Suite("Change feed")
struct ChangeFeedTests {
    @Test func aFeedOpensWithReadyAtTheCurrentPositionAndSendsHeartbeatsWhileIdle() async throws {
        try await ServerHarness.with({ $0.changeHeartbeat = .seconds(1) }) { server in
            // Given a server whose hub learned of one change
            try await server.insert("todo", #"{"id":"a"}"#)
            let hub = try #require(server.server.changes)
            try await eventually("the hub heard of the insert") { hub.position.sequence == 1 }

            // When a feed opens and nothing changes
            let feed = try await server.openFeed()
            defer { feed.close() }

            // Then it is an uncompressed, uncached event stream that starts with ready and then beats
            #expect(feed.status == 200)
            #expect(feed.header("Content-Type") == "text/event-stream")
            #expect(feed.header("Cache-Control") == "no-store")
            #expect(feed.header("X-Accel-Buffering") == "no")
            #expect(feed.header("Content-Encoding") == nil)
            #expect(feed.header("Content-Length") == nil)
            let ready = try #require(try await feed.next())
            #expect(ready.name == "ready")
            #expect(ready.data == #"{"heartbeatSeconds":1}"#)
            let position = try #require(ready.id.flatMap(ChangePosition.init))
            #expect(position.sequence == 1)
            for _ in 0..<2 {
                let heartbeat = try #require(try await feed.next())
                #expect(heartbeat.name == "heartbeat")
                #expect(heartbeat.id == nil)
                #expect(heartbeat.data == "{}")
            }
        }
    }

    @Test func theCapabilitiesDocumentOffersTheFeedWithItsHeartbeat() async throws {
        try await ServerHarness.with { server in
            let document = try await server.send(.get, "/sync/capabilities").object()
            #expect(
                document["changes"]
                    == .object(JSONObject(["path": .string("/sync/changes"), "heartbeatSeconds": .integer(15)])))
        }
    }

    @Test func everyKindOfWriteIsOneChangeEventInCommitOrder() async throws {
        try await ServerHarness.with({ $0.softDelete = .tables(["notes"]) }) { server in
            let feed = try await server.openFeed()
            defer { feed.close() }
            let ready = try #require(try await feed.next())

            // When rows are inserted, updated, deleted, undeleted and written in a batch, and a row is seeded
            try await server.insert("todo", #"{"id":"a"}"#)
            try await server.insert("notes", #"{"id":"n"}"#)
            #expect(try await server.send(.patch, "/tables/todo/a", json: #"{"text":"x"}"#).status == 200)
            #expect(try await server.send(.delete, "/tables/notes/n").status == 200)
            #expect(try await server.send(.post, "/tables/notes/n").status == 200)
            #expect(try await server.send(.delete, "/tables/todo/a").status == 200)
            let batch = """
                {"operations": [
                  {"method": "POST", "table": "todo", "body": {"id": "b"}},
                  {"method": "POST", "table": "notes", "body": {"id": "m"}},
                  {"method": "PATCH", "table": "todo", "id": "b", "body": {"n": 2}}
                ]}
                """
            #expect(try await server.send(.post, "/sync/batch", json: batch).status == 200)
            try await server.controls.seed(table: "seeded", items: [["id": .string("s1")], ["id": .string("s2")]])

            // Then the feed carries one change per write, in order, at consecutive positions
            let changes = try await feed.events(through: { $0.table == "seeded" })
            #expect(changes.map(\.name) == Array(repeating: "change", count: 10))
            #expect(
                changes.compactMap(\.table)
                    == ["todo", "notes", "todo", "notes", "notes", "todo", "todo", "notes", "todo", "seeded"])
            let start = try #require(ready.id.flatMap(ChangePosition.init))
            let positions = changes.compactMap { $0.id.flatMap(ChangePosition.init) }
            #expect(positions.map(\.epoch) == Array(repeating: start.epoch, count: 10))
            #expect(positions.map(\.sequence) == Array(start.sequence + 1...start.sequence + 10))
        }
    }

    @Test func aFailedWriteIsNoChange() async throws {
        try await ServerHarness.with { server in
            try await server.insert("todo", #"{"id":"a"}"#)
            let feed = try await server.openFeed()
            defer { feed.close() }
            _ = try await feed.next()

            #expect(try await server.send(.post, "/tables/todo", json: #"{"id":"a"}"#).status == 409)
            #expect(try await server.send(.patch, "/tables/todo/missing", json: #"{"n":1}"#).status == 404)
            #expect(
                try await server.send(.patch, "/tables/todo/a", json: #"{"n":1}"#, headers: ["If-Match": #""no""#])
                    .status == 412)
            try await server.insert("marker", #"{"id":"m"}"#)

            #expect(try await feed.events(through: { $0.table == "marker" }).compactMap(\.table) == ["marker"])
        }
    }

    @Test func theTablesFilterCarriesOnlyTheNamedTables() async throws {
        try await ServerHarness.with { server in
            let feed = try await server.openFeed(query: "?tables=todo,Notes")
            defer { feed.close() }
            _ = try await feed.next()

            try await server.insert("todo", #"{"id":"a"}"#)
            try await server.insert("other", #"{"id":"b"}"#)
            try await server.insert("notes", #"{"id":"c"}"#)

            let changes = try await feed.events(through: { $0.table == "notes" })
            #expect(changes.compactMap(\.table) == ["todo", "notes"])
        }
    }

    @Test func anInvalidTableNameInTheFilterIs400() async throws {
        try await ServerHarness.with { server in
            for query in ["?tables=todo,1bad", "?tables=", "?tables=todo,,notes", "?tables=a%20b"] {
                let feed = try await server.openFeed(query: query)
                #expect(feed.status == 400, "\(query)")
                feed.close()
            }
        }
    }

    @Test func onlyGETOpensAFeed() async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.post, "/sync/changes", json: "{}")
            #expect(response.status == 405)
            #expect(response.header("Allow") == "GET")
        }
    }

    @Test func aFeedIsNeverCompressedEvenWhenTheClientAcceptsGzip() async throws {
        try await ServerHarness.with({ $0.responseCompression = ResponseCompression(minimumSize: 1) }) { server in
            let feed = try await server.openFeed(headers: ["Accept-Encoding": "gzip"])
            defer { feed.close() }
            #expect(feed.header("Content-Encoding") == nil)
            #expect(try await feed.next()?.name == "ready")
        }
    }

    @Test func aBadTokenIs401WithAChallengeAsOnTheTables() async throws {
        try await ServerHarness.with({ $0.authToken = "secret" }) { server in
            let missing = try await server.openFeed()
            #expect(missing.status == 401)
            #expect(missing.header("WWW-Authenticate") != nil)
            let wrong = try await server.openFeed(headers: ["Authorization": "Bearer nope"])
            #expect(wrong.status == 401)
            let right = try await server.openFeed(headers: ["Authorization": "Bearer secret"])
            defer { right.close() }
            #expect(right.status == 200)
            #expect(try await right.next()?.name == "ready")
        }
    }

    @Test func withFeedsOffThePathIs404AndTheCapabilitiesOfferNone() async throws {
        try await ServerHarness.with({ $0.changeHeartbeat = .zero }) { server in
            let feed = try await server.openFeed()
            #expect(feed.status == 404)
            feed.close()
            let document = try await server.send(.get, "/sync/capabilities").object()
            #expect(document["changes"] == nil)
            try await server.insert("todo", #"{"id":"a"}"#)
        }
    }

    @Test func theMetricsCountOpenFeedsAndEventsSent() async throws {
        try await ServerHarness.with { server in
            let feed = try await server.openFeed()
            _ = try await feed.next()
            try await server.insert("todo", #"{"id":"a"}"#)
            _ = try await feed.events(through: { $0.name == "change" })
            let metrics = try await server.metrics()
            #expect(metrics.value("sync_server_change_feeds_open") == 1)
            #expect(metrics.value("sync_server_change_events_total", ["event": "change"]) == 1)
            #expect(metrics.value("sync_server_change_events_total", ["event": "ready"]) == 1)
            feed.close()
            try await eventually("the feed closed") {
                try await server.metrics().value("sync_server_change_feeds_open") == 0
            }
        }
    }
}

extension ServerHarness {
    /// Opens `GET /sync/changes<query>` on a connection of its own.
    func openFeed(query: String = "", headers: [String: String] = [:]) async throws -> EventStreamClient {
        try await EventStreamClient.open(port: port, path: "/sync/changes" + query, headers: headers)
    }
}

/// Polls `condition` (every 50 ms) until it holds; fails the test when it does not within `timeout`.
func eventually(
    timeout: Duration = .seconds(30), _ what: String = "condition", _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("\(what) did not hold within \(timeout)")
            return
        }
        try await Task.sleep(for: .milliseconds(50))
    }
}
