import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// A store holding everything a user can leave behind, and a raw look at what a wipe must remove.
enum WipeFixture {
    /// The table the store holds that no context of the test opened (another app version's, say).
    static let storeOnlyTable = "Archived"

    /// Fills a device's store: pulled rows and their token and pull time, local rows with queued operations,
    /// a failed one with its push error and retry state, a dead one, a history entry, the engine's backoff,
    /// and rows of a table only the store knows.
    static func fill(_ device: Device, harness: SyncHarness) async throws {
        try await harness.controls.seed(
            table: "TodoItem",
            items: [["id": "pulled", "text": "p", "complete": false, "updatedAt": "2001-01-01T00:00:00.000Z"]])
        try await device.todos.pull(queryId: "q")
        try await device.todos.insert(TodoItem(id: "pushed", text: "sent"))
        try await device.context.push()  // a history entry
        try await device.todos.insert(TodoItem(id: "failing", text: "fails"))
        try await device.todos.insert(TodoItem(id: "pending", text: "waits"))
        try await harness.controls.addFault(
            FaultRule(method: "POST", path: "/tables/TodoItem", occurrence: 1, action: .respond(status: 400)))
        try await harness.dropConnection(method: "POST", path: "/tables/TodoItem", occurrence: 2)
        // "failing" fails (its error is stored), "pending" is aborted and stays queued.
        _ = try? await device.context.push(options: PushOptions(batchSize: 1))
        try await device.todos.insert(TodoItem(id: "dead", text: "refused"))
        // What the engine leaves: a dead operation and another's retry state.
        try await device.context.store.write { transaction in
            if var dead = try transaction.queuedOperation(table: "TodoItem", itemId: "dead") {
                dead.state = .dead
                try transaction.saveQueuedOperations([dead])
            }
            if let failing = try transaction.queuedOperation(table: "TodoItem", itemId: "failing") {
                try RetryRecord(operationId: failing.id, operationVersion: failing.version).save(in: transaction)
            }
        }
        try await device.context.setEngineBackoff(EngineBackoff(failures: 2, until: Date().addingTimeInterval(600)))
        try await fillStoreOnlyTable(device.context.store)
    }

    /// Rows of a table defined in the store only.
    static func fillStoreOnlyTable(_ store: any LocalStore) async throws {
        try await store.defineTable(TableDefinition(name: storeOnlyTable))
        try await store.write { transaction in
            try transaction.upsert(table: storeOnlyTable, items: [["id": "old-1"], ["id": "old-2"]])
        }
    }

    /// What the store holds, read straight from its tables (no context).
    struct RawContents: Equatable {
        var rows: [String: Int] = [:]
        var operations = 0
        var errors = 0
        var retries = 0
        var history = 0
        var configKeys: Set<String> = []
        var tables: Set<String> = []

        static func read(_ store: any LocalStore) async throws -> RawContents {
            var contents = RawContents()
            let definitions = try await store.tableDefinitions()
            contents.tables = Set(definitions.map(\.name))
            for name in contents.tables where !name.hasPrefix("__") {
                contents.rows[name] = try await store.count(StoreQuery(table: name))
            }
            contents.operations = try await store.write { try $0.queuedOperations(.all).count }
            contents.errors = try await store.count(StoreQuery(table: SystemTables.errors))
            contents.retries = try await store.count(StoreQuery(table: SystemTables.retries))
            contents.history = try await store.count(StoreQuery(table: SystemTables.history))
            contents.configKeys = Set(
                try await store.read(StoreQuery(table: SystemTables.config)).compactMap { $0["id"]?.stringValue })
            return contents
        }

        /// Whether nothing of a user is left: no row, operation, error, retry, history entry or pull key.
        var isWiped: Bool {
            rows.values.allSatisfy { $0 == 0 } && operations == 0 && errors == 0 && retries == 0 && history == 0
                && configKeys.isSubset(of: Wipe.survivingConfigKeys)
        }
    }
}
