import Foundation
import Logging
import PostgresNIO
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// Two `sync-server` processes on one PostgreSQL database: every instance hears every instance's writes
/// through LISTEN/NOTIFY, and an instance whose listening session is cut resets its feeds and goes on.
///
/// Only on the PostgreSQL run (`SYNC_TEST_BACKEND=postgres`).
@Suite("Change feed across instances", .serialized)
struct ChangeFeedInstancesTests {
    @Test(.enabled(if: TestBackend.isPostgres), .timeLimit(.minutes(3)))
    func aWriteThroughOneInstanceReachesTheFeedsOfBoth() async throws {
        try await Self.withTwoInstances { servers, _ in
            let feeds = [
                try await EventStreamClient.open(port: servers[0].port, path: "/sync/changes"),
                try await EventStreamClient.open(port: servers[1].port, path: "/sync/changes?tables=todo"),
            ]
            defer { for feed in feeds { feed.close() } }
            for feed in feeds { #expect(try await feed.next()?.name == "ready") }

            // When a row is written through the first instance, then through the second
            #expect(try await servers[0].send(.post, "/tables/todo", json: #"{"id":"a"}"#).status == 201)
            #expect(try await servers[1].send(.patch, "/tables/todo/a", json: #"{"n":1}"#).status == 200)

            // Then both feeds carry both changes, in commit order, at their own instance's positions
            for feed in feeds {
                let changes = try await feed.events(count: 2)
                #expect(changes.compactMap(\.table) == ["todo", "todo"])
            }
        }
    }

    @Test(.enabled(if: TestBackend.isPostgres), .timeLimit(.minutes(3)))
    func aCutListeningSessionResetsTheFeedsThenChangesFlowAgain() async throws {
        try await Self.withTwoInstances { servers, database in
            let feed = try await EventStreamClient.open(port: servers[1].port, path: "/sync/changes")
            defer { feed.close() }
            #expect(try await feed.next()?.name == "ready")
            #expect(try await servers[0].send(.post, "/tables/todo", json: #"{"id":"a"}"#).status == 201)
            let before = try #require(try await feed.events(through: { $0.name == "change" }).last)

            // When the database cuts the instances' listening sessions
            let channel = PostgresChangeNotification.channel(schema: database.schema)
            let cut = try await TestBackend.withSession(database) { session in
                let rows = try await session.query(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = \(channel)",
                    logger: Logger(label: "test"))
                var count = 0
                for try await _ in rows { count += 1 }
                return count
            }
            #expect(cut == 2)

            // Then the feed stays open and gets a reset once the instance listens again, at a position of its own
            let reset = try #require(try await feed.events(through: { $0.name == "reset" }).last)
            let resetPosition = try #require(reset.id.flatMap(ChangePosition.init))
            #expect(resetPosition.sequence > (before.id.flatMap(ChangePosition.init)?.sequence ?? 0))
            #expect(reset.object?.string("reason")?.isEmpty == false)

            // And changes flow again, from either instance
            #expect(try await servers[0].send(.post, "/tables/todo", json: #"{"id":"b"}"#).status == 201)
            #expect(try await servers[1].send(.post, "/tables/todo", json: #"{"id":"c"}"#).status == 201)
            let after = try await feed.events(count: 2)
            #expect(after.map(\.name) == ["change", "change"])

            // And a position from before the cut no longer resumes: the instance cannot say what it missed
            let resumed = try await EventStreamClient.open(
                port: servers[1].port, path: "/sync/changes", headers: ["Last-Event-ID": try #require(before.id)])
            defer { resumed.close() }
            #expect(try await resumed.next()?.name == "ready")
            #expect(try await resumed.next()?.name == "reset")
        }
    }

    /// Runs `body` with two instances on a schema of their own.
    private static func withTwoInstances(
        _ body: @Sendable ([ChildServer], PostgresStorage) async throws -> Void
    ) async throws {
        let database = try TestBackend.freshPostgresDatabase()
        let url = try #require(TestBackend.postgresURL)
        let arguments = ["--database", url, "--database-schema", database.schema, "--pool-size", "2"]
        do {
            let (_, ended) = try await ChildServers.with(count: 2, arguments: arguments) { servers in
                try await body(servers, database)
            }
            #expect(ended == [.exited(0), .exited(0)])
        } catch {
            try? await TestBackend.dropSchema(of: database)
            throw error
        }
        try await TestBackend.dropSchema(of: database)
    }
}
