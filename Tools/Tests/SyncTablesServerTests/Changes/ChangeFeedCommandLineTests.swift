import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The change feed of a `sync-server` process: its flags, and SIGTERM ending open feeds instead of waiting for
/// them.
@Suite("Change feed: sync-server")
struct ChangeFeedCommandLineTests {
    @Test(.timeLimit(.minutes(3)))
    func theFlagsSetTheHeartbeatAndTheMostFeeds() async throws {
        let arguments = ["--in-memory", "--change-heartbeat", "1", "--max-change-feeds", "1"]
        let (_, ended) = try await ChildServers.with(count: 1, arguments: arguments) { servers in
            let server = servers[0]
            let document = try await server.send(.get, "/sync/capabilities").object()
            #expect(
                document["changes"]
                    == .object(JSONObject(["path": .string("/sync/changes"), "heartbeatSeconds": .integer(1)])))
            let feed = try await EventStreamClient.open(port: server.port, path: "/sync/changes")
            defer { feed.close() }
            #expect(try await feed.next()?.data == #"{"heartbeatSeconds":1}"#)
            #expect(try await feed.next()?.name == "heartbeat")
            let refused = try await EventStreamClient.open(port: server.port, path: "/sync/changes")
            #expect(refused.status == 503)
            refused.close()
        }
        #expect(ended == [.exited(0)])
    }

    @Test(.timeLimit(.minutes(3)))
    func aZeroHeartbeatTurnsFeedsOff() async throws {
        let (_, ended) = try await ChildServers.with(
            count: 1, arguments: ["--in-memory", "--change-heartbeat", "0"]
        ) { servers async throws in
            #expect(try await servers[0].send(.get, "/sync/changes").status == 404)
            #expect(try await servers[0].send(.get, "/sync/capabilities").object()["changes"] == nil)
        }
        #expect(ended == [.exited(0)])
    }

    /// The drain timeout is two minutes: a drain that waited for the feed would keep it open that long.
    @Test(.timeLimit(.minutes(4)))
    func sigtermEndsTheOpenFeedsAtOnceAndTheServerExits0() async throws {
        let arguments = ["--in-memory", "--drain-timeout", "120"]
        let (endedEarly, ended) = try await ChildServers.with(count: 1, arguments: arguments) { servers in
            // Given an open feed
            let server = servers[0]
            let feed = try await EventStreamClient.open(port: server.port, path: "/sync/changes")
            defer { feed.close() }
            #expect(try await feed.next()?.name == "ready")

            // When the server gets SIGTERM
            server.send(signal: SIGTERM)

            // Then the feed ends well before the drain timeout
            _ = try await feed.eventsUntilEnd(timeout: .seconds(60))
            return feed.hasEnded
        }
        #expect(endedEarly)
        #expect(ended == [.exited(0)])
    }
}
