import Foundation
import SyncTablesServer
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// An incremental pull asks again for the records stamped exactly at its token: the ones the store holds
/// already are neither counted, nor written, nor shown to observers.
@Suite("Repeated incremental pulls")
struct RepeatedIncrementalPullTests {
    @Test(arguments: [false, true])
    func aPullWithNoServerChangeReceivesNothingAndWakesNoObserver(keysetPull: Bool) async throws {
        try await SyncHarness.with(advertisesKeysetPull: keysetPull) { harness in
            // Given a device that pulled three rows, two of them stamped at the newest time (its token)
            try await harness.controls.seed(
                table: "TodoItem",
                items: [
                    ["id": "a", "text": "a", "complete": false, "updatedAt": "2001-01-01T00:00:00.000Z"],
                    ["id": "b", "text": "b", "complete": false, "updatedAt": "2001-01-02T00:00:00.000Z"],
                    ["id": "c", "text": "c", "complete": false, "updatedAt": "2001-01-02T00:00:00.000Z"],
                ])
            let device = try await harness.device()
            let first = try await device.todos.pull(queryId: "all")
            #expect(first.received == 3 && first.upserted == 3)
            let changes = device.context.changeNotifier.changes(of: "TodoItem")

            // When it pulls again with nothing new on the server
            let second = try await device.todos.pull(queryId: "all")

            // Then nothing was received, written or signalled (a pull without keysets got the two boundary
            // records again)
            #expect(second.received == 0 && second.upserted == 0 && second.deleted == 0)
            let requests = try await harness.takeRequests().filter { $0.method == "GET" }
            if !keysetPull {
                #expect(
                    requests.last?.queryValue("$filter") == "(updatedAt ge datetimeoffset'2001-01-02T00:00:00.000Z')")
            }
            try await device.context.close()
            var signals = 0
            for await _ in changes { signals += 1 }
            #expect(signals == 0)
        }
    }

    @Test func aChangedRecordAtTheBoundaryCountsOnceAndTheUnchangedOneNot() async throws {
        // Only a pull without keysets reads its boundary again (a keyset pull starts after the last record it stored).
        try await SyncHarness.with(advertisesKeysetPull: false) { harness in
            // Given a device that pulled b and c, both stamped at its token
            let seeded = try await harness.controls.seed(
                table: "TodoItem",
                items: [
                    ["id": "b", "text": "b", "complete": false, "updatedAt": "2001-01-02T00:00:00.000Z"],
                    ["id": "c", "text": "c", "complete": false, "updatedAt": "2001-01-02T00:00:00.000Z"],
                ])
            let device = try await harness.device()
            try await device.todos.pull(queryId: "all")

            // When the server stores a new version of c at the same time, and b is deleted later
            var changed = try #require(seeded.last)
            changed["text"] = "c2"
            changed["version"] = "v-new"
            try await harness.controls.seed(table: "TodoItem", items: [changed])
            var gone = try #require(seeded.first)
            gone["deleted"] = true
            gone["updatedAt"] = "2001-01-03T00:00:00.000Z"
            gone["version"] = "v-gone"
            try await harness.controls.seed(table: "TodoItem", items: [gone])
            let changes = device.context.changeNotifier.changes(of: "TodoItem")
            let summary = try await device.todos.pull(queryId: "all")

            // Then the changed record and the deletion count, each once, and observers hear of it
            #expect(summary.received == 2 && summary.upserted == 1 && summary.deleted == 1)
            #expect(try await device.todos.lookup(id: "c")?.text == "c2")
            #expect(try await device.todos.lookup(id: "b") == nil)
            let again = try await device.todos.pull(queryId: "all")
            #expect(again.received == 0 && again.upserted == 0 && again.deleted == 0)
            try await device.context.close()
            var signals = 0
            for await _ in changes { signals += 1 }
            #expect(signals == 1)
        }
    }
}
