import Foundation
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@_spi(SyncTablesTools) @testable import SyncTablesSQLite
@testable import SyncTablesServer

/// A keyed write and its record commit together: a write that committed is replayed even when its answer
/// was lost, a write that did not commit leaves no record, and requests with one key racing each other (on
/// one instance or on two sharing a PostgreSQL database) run the write once.
@Suite("Idempotency records commit with their writes")
struct IdempotencyAtomicityTests {
    @Test func aWriteWhoseAnswerWasLostIsReplayed() async throws {
        try await IdempotencyRecords.withServer { server in
            try await server.insert("todo", #"{"id":"a","n":0}"#)
            try await server.controls.addFault(
                FaultRule(method: "PATCH", path: "/tables/todo/a", action: .lostResponse))
            await #expect(throws: (any Error).self) {
                try await server.send(.patch, "/tables/todo/a", json: #"{"n":1}"#, headers: idempotencyKey("k"))
            }
            let committed = try await server.send(.get, "/tables/todo/a")
            #expect(try committed.object()["n"] == 1)

            let repeated = try await server.send(
                .patch, "/tables/todo/a", json: #"{"n":1}"#, headers: idempotencyKey("k"))

            #expect(repeated.status == 200 && repeated.header("Idempotent-Replayed") == "true")
            #expect(repeated.header("ETag") == committed.header("ETag"))
            #expect(try await IdempotencyRecords.count(server) == 1)
        }
    }

    @Test(.enabled(if: !TestBackend.isPostgres), .timeLimit(.minutes(2)))
    func onSQLiteAWriteThatFailsToCommitLeavesNoRecord() async throws {
        try await LateCommitTests.withHeldSQLiteFile(busyTimeoutMilliseconds: 200) { server, holder in
            try await server.insert("todo", #"{"id":"a","n":0}"#)
            try holder.execute("BEGIN IMMEDIATE")
            let busy = try await server.send(.patch, "/tables/todo/a", json: #"{"n":1}"#, headers: idempotencyKey("k"))
            try holder.execute("COMMIT")
            #expect(busy.status == 503, "\(busy.text)")
            #expect(try await IdempotencyRecords.count(server) == 0)

            let retried = try await server.send(
                .patch, "/tables/todo/a", json: #"{"n":1}"#, headers: idempotencyKey("k"))

            #expect(retried.status == 200 && retried.header("Idempotent-Replayed") == nil)
            #expect(try await IdempotencyRecords.count(server) == 1)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func requestsWithOneKeyRacingEachOtherWriteOnce() async throws {
        try await ServerHarness.with { server in
            try await server.insert("todo", #"{"id":"a","n":0}"#)

            let responses = try await Self.sendAtOnce(8, to: [server])

            #expect(responses.allSatisfy { $0.status == 200 }, "\(responses.map(\.text))")
            #expect(Set(responses.compactMap { $0.header("ETag") }).count == 1)
            #expect(responses.filter { $0.header("Idempotent-Replayed") == nil }.count == 1)
            let stored = try await server.send(.get, "/tables/todo/a")
            #expect(stored.header("ETag") == responses.first?.header("ETag"))
        }
    }

    @Test(.enabled(if: TestBackend.isPostgres), .timeLimit(.minutes(2)))
    func twoInstancesOnOneDatabaseReplayEachOthersWrites() async throws {
        try await ServerHarness.with { first in
            try await Self.withSecondInstance(of: first) { second in
                try await first.insert("todo", #"{"id":"a","n":0}"#)
                let original = try await first.send(
                    .patch, "/tables/todo/a", json: #"{"n":1}"#, headers: idempotencyKey("k"))
                try #require(original.status == 200)

                let repeated = try await second.send(
                    .patch, "/tables/todo/a", json: #"{"n":1}"#, headers: idempotencyKey("k"))
                #expect(repeated.header("Idempotent-Replayed") == "true" && repeated.body == original.body)

                let raced = try await Self.sendAtOnce(8, to: [first, second], key: "raced")
                #expect(raced.allSatisfy { $0.status == 200 }, "\(raced.map(\.text))")
                #expect(Set(raced.compactMap { $0.header("ETag") }).count == 1)
                #expect(raced.filter { $0.header("Idempotent-Replayed") == nil }.count == 1)
            }
        }
    }

    /// Sends `count` PATCHes of item `a` with one key at once, spread over `servers`.
    private static func sendAtOnce(_ count: Int, to servers: [ServerHarness], key: String = "k") async throws
        -> [HTTPResult]
    {
        try await withThrowingTaskGroup(of: HTTPResult.self) { group in
            for index in 0..<count {
                let server = servers[index % servers.count]
                group.addTask {
                    try await server.send(.patch, "/tables/todo/a", json: #"{"n":2}"#, headers: idempotencyKey(key))
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// A second server on the first one's database, running while `body` runs.
    private static func withSecondInstance(of first: ServerHarness, _ body: (ServerHarness) async throws -> Void)
        async throws
    {
        let server = try await SyncServer(configuration: first.server.configuration)
        try await server.start()
        try await server.stopping { try await body(ServerHarness(server: server, port: try #require(server.port))) }
    }
}
