import Foundation
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// `Last-Event-ID`: a feed that reconnects after a position of this server's history gets every change it
/// missed; any other position gets a `reset` (on the backend `SYNC_TEST_BACKEND` selects).
@Suite("Change feed: resuming with Last-Event-ID")
struct ChangeFeedResumeTests {
    @Test func aReconnectWithTheLastIDGetsTheChangesMadeMeanwhileThenLiveOnes() async throws {
        try await ServerHarness.with { server in
            // Given a feed that saw one change and went away
            let first = try await server.openFeed()
            _ = try await first.next()
            try await server.insert("todo", #"{"id":"a"}"#)
            let seen = try #require(try await first.events(through: { $0.name == "change" }).last?.id)
            first.close()

            // When two writes happen meanwhile and the feed reconnects with its last id
            try await server.insert("todo", #"{"id":"b"}"#)
            try await server.insert("notes", #"{"id":"c"}"#)
            let hub = try #require(server.server.changes)
            try await eventually("the hub heard of both writes") { hub.position.sequence == 3 }
            let again = try await server.openFeed(headers: ["Last-Event-ID": seen])
            defer { again.close() }

            // Then ready is followed by the missed changes, then live changes follow
            let ready = try #require(try await again.next())
            #expect(ready.name == "ready")
            #expect(ready.id == hub.position.description)
            try await server.insert("todo", #"{"id":"d"}"#)
            let changes = try await again.events(through: { $0.id == "\(hub.epoch):4" })
            #expect(changes.map(\.name) == ["change", "change", "change"])
            #expect(changes.compactMap(\.table) == ["todo", "notes", "todo"])
            #expect(changes.compactMap(\.id) == ["\(hub.epoch):2", "\(hub.epoch):3", "\(hub.epoch):4"])
        }
    }

    @Test(.timeLimit(.minutes(3)))
    func aReaderReconnectingAgainAndAgainWhileWritesGoOnMissesNoChangeAndSeesNoneTwice() async throws {
        try await ServerHarness.with { server in
            let writes = 120
            let hub = try #require(server.server.changes)
            let writer = Task {
                for index in 0..<writes { try await server.insert("todo", #"{"id":"w\#(index)"}"#) }
            }
            var sequences: [UInt64] = []
            var lastID: String?
            var generator = SystemRandomNumberGenerator()
            while sequences.count < writes {
                let feed = try await server.openFeed(headers: lastID.map { ["Last-Event-ID": $0] } ?? [:])
                let ready = try #require(try await feed.next())
                #expect(ready.name == "ready")
                // Each connection reads a few changes (or none), then the client goes away.
                for _ in 0..<Int.random(in: 0...6, using: &generator) where sequences.count < writes {
                    guard let event = try await feed.next(), event.name != "heartbeat" else { continue }
                    #expect(event.name == "change", "\(event)")
                    let position = try #require(event.id.flatMap(ChangePosition.init))
                    sequences.append(position.sequence)
                    lastID = event.id
                }
                if lastID == nil { lastID = ready.id }
                feed.close()
            }
            try await writer.value
            #expect(sequences == Array(1...UInt64(writes)))
            #expect(hub.position.sequence == UInt64(writes))
        }
    }

    @Test func aMalformedForeignOrFuturePositionGetsAResetRightAfterReady() async throws {
        try await ServerHarness.with { server in
            let hub = try #require(server.server.changes)
            try await server.insert("todo", #"{"id":"a"}"#)
            try await eventually("the hub heard of the insert") { hub.position.sequence == 1 }
            for lastID in ["garbage", "", "\(hub.epoch):x", "0123456789abcdef:1", "\(hub.epoch):2", "\(hub.epoch)"] {
                let feed = try await server.openFeed(headers: ["Last-Event-ID": lastID])
                defer { feed.close() }
                let ready = try #require(try await feed.next())
                let reset = try #require(try await feed.next())
                #expect(ready.name == "ready")
                #expect(reset.name == "reset", "\(lastID)")
                #expect(reset.id == ready.id)
                #expect(reset.object?.string("reason")?.isEmpty == false)
            }
        }
    }

    @Test func thePositionOfTheLastChangeResumesWithNothingToReplay() async throws {
        try await ServerHarness.with({ $0.changeHeartbeat = .seconds(1) }) { server in
            let hub = try #require(server.server.changes)
            try await server.insert("todo", #"{"id":"a"}"#)
            try await eventually("the hub heard of the insert") { hub.position.sequence == 1 }
            let feed = try await server.openFeed(headers: ["Last-Event-ID": "\(hub.epoch):1"])
            defer { feed.close() }
            #expect(try await feed.next()?.name == "ready")
            #expect(try await feed.next()?.name == "heartbeat")
        }
    }

    @Test func aPositionOlderThanTheHistoryGetsAResetAndOneStillKeptReplays() async throws {
        try await ServerHarness.with({ $0.changeHistory = 3 }) { server in
            let hub = try #require(server.server.changes)
            for index in 1...5 { try await server.insert("todo", #"{"id":"r\#(index)"}"#) }
            try await eventually("the hub heard of every insert") { hub.position.sequence == 5 }
            // The history keeps changes 3, 4 and 5: resuming needs the change right after the position.
            let old = try await server.openFeed(headers: ["Last-Event-ID": "\(hub.epoch):1"])
            defer { old.close() }
            #expect(try await old.next()?.name == "ready")
            #expect(try await old.next()?.name == "reset")

            let kept = try await server.openFeed(headers: ["Last-Event-ID": "\(hub.epoch):2"])
            defer { kept.close() }
            #expect(try await kept.next()?.name == "ready")
            let replayed = try await kept.events(through: { $0.id == "\(hub.epoch):5" })
            #expect(replayed.compactMap(\.id) == (3...5).map { "\(hub.epoch):\($0)" })
        }
    }

    @Test func aRestartedServerHasANewEpochAndAnswersAnEarlierPositionWithAReset() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("feed-restart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = TestBackend.isPostgres ? try TestBackend.freshPostgresDatabase() : nil
        let configuration = SyncServerConfiguration(
            storage: database.map { .postgres($0) } ?? .file(path: folder.appendingPathComponent("db.sqlite").path))
        defer { if let database { Task { try? await TestBackend.dropSchema(of: database) } } }

        // Given a position from a server that has stopped since
        let before = try await SyncServer(configuration: configuration)
        try await before.start()
        let earlier = try await before.stopping { () -> String in
            let harness = ServerHarness(server: before, port: try #require(before.port))
            try await harness.insert("todo", #"{"id":"a"}"#)
            let hub = try #require(before.changes)
            try await eventually("the hub heard of the insert") { hub.position.sequence == 1 }
            return hub.position.description
        }

        // When a feed resumes with it from the restarted server
        let after = try await SyncServer(configuration: configuration)
        try await after.start()
        try await after.stopping {
            let harness = ServerHarness(server: after, port: try #require(after.port))
            let feed = try await harness.openFeed(headers: ["Last-Event-ID": earlier])
            defer { feed.close() }

            // Then the rows are still there, but the feed cannot say what changed: it resets
            #expect(try await harness.send(.get, "/tables/todo/a").status == 200)
            let ready = try #require(try await feed.next())
            #expect(ready.id.flatMap(ChangePosition.init)?.epoch != ChangePosition(earlier)?.epoch)
            #expect(try await feed.next()?.name == "reset")
        }
    }

    @Test func droppingTheFeedsEndsEveryConnectionAndAReconnectCatchesUp() async throws {
        try await ServerHarness.with { server in
            let hub = try #require(server.server.changes)
            let feeds = [try await server.openFeed(), try await server.openFeed(query: "?tables=todo")]
            for feed in feeds { #expect(try await feed.next()?.name == "ready") }
            try await server.insert("todo", #"{"id":"a"}"#)
            let seen = try await feeds[0].events(through: { $0.name == "change" }).last?.id
            _ = try await feeds[1].events(through: { $0.name == "change" })

            // When the test controls drop every feed
            let dropped = try await server.send(.post, "/__test/feeds/drop", json: nil)
            #expect(try dropped.object()["dropped"] == .integer(2))

            // Then both connections end, and a reconnect gets what changed after its last change
            for feed in feeds { _ = try await feed.eventsUntilEnd() }
            #expect(hub.statistics.openFeeds == 0)
            try await server.insert("todo", #"{"id":"b"}"#)
            let again = try await server.openFeed(headers: ["Last-Event-ID": try #require(seen)])
            defer { again.close() }
            #expect(try await again.next()?.name == "ready")
            #expect(try await again.events(through: { $0.name == "change" }).last?.id == "\(hub.epoch):2")
        }
    }

    @Test func removingEveryRowResetsTheOpenFeedsAndNoEarlierPositionResumes() async throws {
        try await ServerHarness.with { server in
            let hub = try #require(server.server.changes)
            try await server.insert("todo", #"{"id":"a"}"#)
            try await eventually("the hub heard of the insert") { hub.position.sequence == 1 }
            let feed = try await server.openFeed()
            defer { feed.close() }
            #expect(try await feed.next()?.name == "ready")

            #expect(try await server.send(.post, "/__test/reset", json: nil).status == 200)

            let reset = try #require(try await feed.events(through: { $0.name == "reset" }).last)
            #expect(reset.id == "\(hub.epoch):2")
            let resumed = try await server.openFeed(headers: ["Last-Event-ID": "\(hub.epoch):1"])
            defer { resumed.close() }
            #expect(try await resumed.next()?.name == "ready")
            #expect(try await resumed.next()?.name == "reset")
        }
    }
}
