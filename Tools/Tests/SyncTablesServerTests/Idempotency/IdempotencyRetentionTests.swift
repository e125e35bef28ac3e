import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// Records of keyed writes expire after the retention period, and are removed lazily in bounded steps.
@Suite("Idempotency retention")
struct IdempotencyRetentionTests {
    @Test func anExpiredKeyRunsItsWriteAgain() async throws {
        let clock = ManualSyncClock()
        try await IdempotencyRecords.withServer({
            $0.clock = clock
            $0.idempotencyKeyRetention = .seconds(3600)
        }) { server in
            try await server.insert("todo", #"{"id":"a"}"#)
            let first = try await server.send(.patch, "/tables/todo/a", json: #"{"n":1}"#, headers: idempotencyKey("k"))
            clock.advance(by: .seconds(3599))
            let withinRetention = try await server.send(
                .patch, "/tables/todo/a", json: #"{"n":1}"#, headers: idempotencyKey("k"))
            #expect(withinRetention.header("ETag") == first.header("ETag"))

            clock.advance(by: .seconds(2))
            let afterRetention = try await server.send(
                .patch, "/tables/todo/a", json: #"{"n":1}"#, headers: idempotencyKey("k"))

            #expect(afterRetention.status == 200 && afterRetention.header("Idempotent-Replayed") == nil)
            #expect(afterRetention.header("ETag") != first.header("ETag"))
            #expect(try await IdempotencyRecords.count(server) == 1)
        }
    }

    @Test func expiredRecordsAreRemovedByALaterKeyedWrite() async throws {
        let clock = ManualSyncClock()
        try await IdempotencyRecords.withServer({
            $0.clock = clock
            $0.idempotencyKeyRetention = .seconds(3600)
        }) { server in
            for index in 0..<5 {
                let response = try await server.send(
                    .post, "/tables/todo", json: #"{"id":"old\#(index)"}"#, headers: idempotencyKey("old\(index)"))
                try #require(response.status == 201)
            }
            #expect(try await IdempotencyRecords.count(server) == 5)
            clock.advance(by: .seconds(3601))
            let unkeyed = try await server.send(.post, "/tables/todo", json: #"{"id":"plain"}"#)
            #expect(unkeyed.status == 201)
            #expect(try await IdempotencyRecords.count(server) == 5, "only keyed writes sweep")

            let keyed = try await server.send(
                .post, "/tables/todo", json: #"{"id":"new"}"#, headers: idempotencyKey("new"))

            #expect(keyed.status == 201)
            #expect(try await IdempotencyRecords.count(server) == 1)
        }
    }

    @Test func aSweepRemovesAtMostOneStepAndTheNextWriteGoesOn() async throws {
        let clock = ManualSyncClock()
        try await IdempotencyRecords.withServer({
            $0.clock = clock
            $0.idempotencyKeyRetention = .seconds(60)
        }) { server in
            let storage = server.server.storage
            let sweeper = BoundedSweeper.idempotencyRecords(
                of: storage, retention: .seconds(60), clock: clock, logger: .init(label: "test"))
            let total = sweeper.stepLimit + 10
            try await Self.record(total, on: storage, at: clock.now().millisecondsSince1970)
            clock.advance(by: .seconds(61))

            #expect(await sweeper.sweepIfDue() == sweeper.stepLimit)
            #expect(await sweeper.sweepIfDue() == 10, "a full step is followed at once")
            #expect(await sweeper.sweepIfDue() == 0, "then not before the interval")
            #expect(try await IdempotencyRecords.count(server) == 0)
        }
    }

    /// Records `count` keyed inserts through the storage directly (as many requests would).
    private static func record(_ count: Int, on storage: any TableStorage, at now: Int64) async throws {
        _ = try await storage.prepareTable("todo", scopeColumn: nil)
        for index in 0..<count {
            let request = IdempotentRequest(scope: "", key: "k\(index)", method: "POST", path: "/tables/todo")
            let recording = IdempotentRecording(
                request: request, recordedAt: now, expiredBefore: now - 60_000, status: 201, carriesItem: true)
            _ = try await storage.change(table: "todo", id: "r\(index)", recording: recording) { _, stamp in
                let item = JSONObject(["id": .string("r\(index)"), "version": .string(stamp.version)])
                return (.upsert(item), item)
            }
        }
    }
}
