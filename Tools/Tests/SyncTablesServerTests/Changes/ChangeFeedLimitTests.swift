import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// What keeps change feeds from costing the server more than it can give: the most feeds open at once, the
/// bounded queue that drops a reader who does not read, the connection deadlines that leave a streaming feed
/// alone, and the drain that ends feeds instead of waiting for them.
@Suite("Change feed limits")
struct ChangeFeedLimitTests {
    @Test func beyondTheMostFeedsANewOneIs503WithRetryAfterUntilOneCloses() async throws {
        try await ServerHarness.with({ $0.maxChangeFeeds = 2 }) { server in
            let open = [try await server.openFeed(), try await server.openFeed()]
            for feed in open { #expect(try await feed.next()?.name == "ready") }

            let refused = try await server.openFeed()
            #expect(refused.status == 503)
            #expect(refused.header("Retry-After") == "5")
            #expect(try await refused.bodyText().contains("Too many change feeds"))
            refused.close()

            open[0].close()
            let hub = try #require(server.server.changes)
            try await eventually("the closed feed was freed") { hub.statistics.openFeeds == 1 }
            let admitted = try await server.openFeed()
            defer { admitted.close() }
            #expect(admitted.status == 200)
            open[1].close()
        }
    }

    @Test func theDefaultMostFeedsIsHalfTheConnections() {
        var configuration = SyncServerConfiguration()
        configuration.connectionLimits.maxConnections = 100
        #expect(configuration.effectiveMaxChangeFeeds == 50)
        configuration.maxChangeFeeds = 7
        #expect(configuration.effectiveMaxChangeFeeds == 7)
    }

    /// A reader that stops reading while many changes happen: the server writes until the connection's buffers
    /// are full, queues at most its bound for the feed, then drops it. The server's queues and history stay
    /// within their bounds throughout, and a reader that reads gets every change.
    @Test(.timeLimit(.minutes(10)))
    func aReaderThatDoesNotReadIsDroppedWhileOthersGetEveryChange() async throws {
        // Long table names make long events, so the connection's buffers fill sooner.
        let table = "t" + String(repeating: "x", count: 120)
        try await ServerHarness.with({ $0.changeHistory = 20_000 }) { server in
            let hub = try #require(server.server.changes)
            let reader = try await server.openFeed()
            defer { reader.close() }
            #expect(try await reader.next()?.name == "ready")
            let stalled = try RawConnection(port: server.port, receiveBufferSize: 4096)
            defer { stalled.close() }
            try await stalled.send("GET /sync/changes HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            try await eventually("both feeds opened") { hub.statistics.openFeeds == 2 }

            // When batches of writes go on until the stalled feed is dropped (or far longer than it could take)
            var batches = 0
            while hub.statistics.openFeeds == 2, batches < 400 {
                let operations = (0..<100).map { index in
                    #"{"method":"POST","table":"\#(table)","body":{"id":"r\#(batches)-\#(index)"}}"#
                }
                let batch = #"{"operations":[\#(operations.joined(separator: ","))]}"#
                // A batch of 100 writes to PostgreSQL can take long on a machine busy with other tests.
                let written = try await server.send(.post, "/sync/batch", json: batch, timeout: .seconds(180))
                try #require(written.status == 200)
                batches += 1
                let statistics = hub.statistics
                #expect(statistics.longestQueue <= hub.queueLimit + 100)
                #expect(statistics.historyCount <= 20_000)
                // The reading feed keeps up, as a client's reader does.
                _ = try await reader.events(through: { $0.id == hub.position.description })
            }

            // Then the stalled feed was dropped, the reader has every change, and the metrics count the drop
            #expect(hub.statistics.openFeeds == 1, "not dropped after \(batches) batches")
            let metrics = try await server.metrics()
            #expect(metrics.value("sync_server_change_feeds_dropped_total") == 1)
            let written = try #require(batches * 100 > 0 ? UInt64(batches * 100) : nil)
            #expect(hub.position.sequence == written)

            // And the stalled reader, reading at last, finds complete events up to where its connection ended;
            // reconnecting with the last one catches up from the history
            guard case .closed(let received) = try await stalled.waitForClose(timeout: .seconds(60)) else {
                Issue.record("the stalled feed's connection did not end")
                return
            }
            let ids = received.split(separator: "\n").filter { $0.hasPrefix("id: ") }.map { String($0.dropFirst(4)) }
            let last = try #require(ids.last)
            let lastSequence = try #require(ChangePosition(last)?.sequence)
            #expect(lastSequence < written)
            let resumed = try await server.openFeed(headers: ["Last-Event-ID": last])
            defer { resumed.close() }
            #expect(try await resumed.next()?.name == "ready")
            let replayed = try await resumed.events(through: { $0.id == hub.position.description })
            #expect(replayed.count == Int(written - lastSequence))
            #expect(replayed.allSatisfy { $0.name == "change" })
        }
    }

    @Test func aStreamingFeedOutlivesTheIdleTimeout() async throws {
        try await ServerHarness.with({
            // Long enough for a loaded machine (the whole suite on 2 cores) to send a request on a new
            // connection, yet far shorter than the feed is open.
            $0.connectionLimits.idleTimeout = .seconds(6)
            $0.changeHeartbeat = .seconds(15)
        }) { server in
            let feed = try await server.openFeed()
            defer { feed.close() }
            #expect(try await feed.next()?.name == "ready")
            // Two heartbeats: five idle timeouts long.
            #expect(try await feed.next()?.name == "heartbeat")
            #expect(try await feed.next()?.name == "heartbeat")
            #expect(!feed.hasEnded)
            try await server.insert("todo", #"{"id":"a"}"#)
            #expect(try await feed.events(through: { $0.name == "change" }).last?.table == "todo")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func stoppingTheServerEndsItsFeedsWithoutWaitingForThem() async throws {
        let database = TestBackend.isPostgres ? try TestBackend.freshPostgresDatabase() : nil
        var configuration = SyncServerConfiguration(storage: database.map { .postgres($0) } ?? .inMemory)
        configuration.changeHeartbeat = .seconds(600)
        let server = try await SyncServer(configuration: configuration)
        try await server.start()
        let harness = ServerHarness(server: server, port: try #require(server.port))

        // Given an idle feed and one whose reader stopped reading
        let idle = try await harness.openFeed()
        #expect(try await idle.next()?.name == "ready")
        let stalled = try RawConnection(port: harness.port, receiveBufferSize: 4096)
        defer { stalled.close() }
        try await stalled.send("GET /sync/changes HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        try await eventually("both feeds opened") { server.changes?.statistics.openFeeds == 2 }

        // When the server stops
        try await server.stop()

        // Then it stopped (the drain did not wait for the feeds), and the idle feed's stream ended cleanly
        #expect(try await idle.eventsUntilEnd(timeout: .seconds(10)).isEmpty)
        #expect(server.changes?.statistics.openFeeds == 0)
        if let database { try await TestBackend.dropSchema(of: database) }
    }
}
