import Foundation
import SyncTablesServer
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// A queue of mixed work on a device: inserts of new items, then updates and deletes of items seeded on
/// the server and pulled; knows the requests one-by-one push would send and what the server must end with.
struct QueuedWork {
    let inserted: [String]
    let updated: [String]
    let deleted: [String]

    /// Seeds `seeded` items, pulls them, queues `inserts` inserts, updates half the seeded items and
    /// deletes a quarter of them (the requests it sent meanwhile are taken from the log).
    static func make(on device: Device, harness: SyncHarness, seeded: Int, inserts: Int) async throws -> QueuedWork {
        let rows: [JSONObject] = (0..<seeded).map { ["id": .string("s\($0)"), "text": "seeded", "complete": false] }
        _ = try await harness.controls.seed(table: "TodoItem", items: rows)
        try await device.todos.pull()
        let inserted = (0..<inserts).map { "n\($0)" }
        for id in inserted { try await device.todos.insert(TodoItem(id: id, text: "new \(id)")) }
        let updated = (0..<seeded / 2).map { "s\($0)" }
        for id in updated { try await edit(id, to: "updated \(id)", on: device) }
        let deleted = (seeded / 2..<seeded / 2 + seeded / 4).map { "s\($0)" }
        for id in deleted { try await device.todos.delete(id: id) }
        _ = try await harness.takeRequests()
        return QueuedWork(inserted: inserted, updated: updated, deleted: deleted)
    }

    /// `METHOD /path` of each operation's request, in queue order.
    var expectedRequests: [String] {
        inserted.map { _ in "POST /tables/TodoItem" } + updated.map { "PATCH /tables/TodoItem/\($0)" }
            + deleted.map { "DELETE /tables/TodoItem/\($0)" }
    }

    /// Every operation took effect on the server, and the device holds the server's versions.
    func expectServerHoldsTheResult(_ harness: SyncHarness, device: Device) async throws {
        let client = SyncClient(url: harness.url)
        let page = try await client.query(table: "TodoItem", queryString: "$top=1000&__includeDeleted=true")
        let server = Dictionary(
            uniqueKeysWithValues: page.items.compactMap { item in item["id"]?.stringValue.map { ($0, item) } })
        for id in inserted {
            #expect(server[id]?["text"] == .string("new \(id)"), "insert \(id)")
        }
        for id in updated {
            #expect(server[id]?["text"] == .string("updated \(id)"), "update \(id)")
            let local = try await device.todos.lookup(id: id)
            #expect(local?.version != nil && local?.version == server[id]?["version"]?.stringValue, "version \(id)")
        }
        for id in deleted {
            #expect(server[id]?["deleted"] == .bool(true), "delete \(id)")
        }
    }
}
