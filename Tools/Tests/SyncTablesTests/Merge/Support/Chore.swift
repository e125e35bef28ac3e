import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// The item the merge tests sync; each test stores the rules it needs for its table.
struct Chore: SyncItem, Equatable {
    var id: String
    var title: String = ""
    var status: String = "open"
    var quantity: Int = 0
    var tags: [String] = []
    var note: String = ""
    var version: String?
}

/// A device syncing chores with a harness's server.
struct ChoreDevice: Sendable {
    let context: SyncContext
    let chores: SyncTable<Chore>
}

extension SyncHarness {
    /// A device whose `Chore` table follows `rules`.
    func choreDevice(rules: SyncRules, conflictPolicy: ConflictPolicy = .manual) async throws -> ChoreDevice {
        let store = try SQLiteStore(path: directory.newDatabasePath())
        let context = try await SyncContext(
            store: store, client: SyncClient(url: url),
            configuration: SyncContext.Configuration(conflictPolicy: conflictPolicy))
        let chores = try await context.table(Chore.self)
        try await context.storeRules(rules, for: "Chore")
        return ChoreDevice(context: context, chores: chores)
    }

    /// Two devices holding `base` as the server has it.
    func twoChoreDevices(
        sharing base: Chore, rules: SyncRules, conflictPolicy: ConflictPolicy = .manual
    ) async throws -> (ChoreDevice, ChoreDevice) {
        let first = try await choreDevice(rules: rules, conflictPolicy: conflictPolicy)
        let second = try await choreDevice(rules: rules, conflictPolicy: conflictPolicy)
        try await first.chores.insert(base)
        try await first.context.push()
        try await second.chores.pull()
        return (first, second)
    }

    /// The server's chore (soft-deleted ones included).
    func serverChore(_ id: String) async throws -> JSONObject? {
        try await serverItem(id, table: "Chore")
    }
}

extension ChoreDevice {
    /// Changes the stored chore with `id` locally.
    func edit(_ id: String, _ change: (inout Chore) -> Void) async throws {
        var chore = try #require(try await chores.lookup(id: id))
        change(&chore)
        try await chores.update(chore)
    }

    /// The latest history entry, if any.
    func lastHistoryEntry() async throws -> OperationHistoryEntry? {
        try await context.history(limit: 1).first
    }
}
