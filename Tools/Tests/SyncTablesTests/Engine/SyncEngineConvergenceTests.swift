import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Seeded random app actions on two engines against one `sync-server` while about 30 % of the steps inject
/// a transient fault (500, 503, a dropped connection, a lost response). Once the faults stop, both devices
/// equal the server, nothing is pending, and no write of an item only one device touches was lost.
///
/// Replay with `SYNCTABLES_ENGINE_SEED=<seed>`; `SYNCTABLES_ENGINE_STEPS` (default 500) and
/// `SYNCTABLES_ENGINE_SEEDS` (default 1) make it longer.
@Suite("Sync engine: convergence under transient faults")
struct SyncEngineConvergenceTests {
    @Test func twoEnginesConvergeAndLoseNoWrite() async throws {
        try await SeededRuns("SYNCTABLES_ENGINE", defaultSteps: 500).run("SyncEngineConvergenceTests") { seed, steps in
            try await run(seed: seed, steps: steps)
        }
    }

    private func run(seed: UInt64, steps: Int) async throws {
        var random = SeededGenerator(seed: seed)
        try await SyncHarness.with(softDelete: .allTables, pageSize: 4) { harness in
            let clock = ManualSyncClock()
            let configuration = SyncEngineConfiguration(
                retry: RetryPolicy(baseDelay: .seconds(1), maximumDelay: .seconds(30), maxAttempts: 4),
                breakerThreshold: 4, breakerCooldown: .seconds(60))
            var devices: [EngineDevice] = []
            for _ in 0..<2 {
                // Client wins: a device's own write racing its earlier, lost-response write must not be lost.
                devices.append(
                    try await EngineDevice.make(
                        harness, clock: clock, configuration: configuration, conflictPolicy: .clientWins))
            }
            // Each device writes ids of its own, new ones for inserts as apps do (a deleted id is never
            // inserted again: with soft delete that would need an undelete); "s…" ids are shared, so they
            // conflict, and may be deleted and inserted again.
            let prefixes = ["a", "b"]
            var owned: [[String]] = [[], []]
            var lastWritten: [String: String?] = [:]  // owned id → last local text (nil: deleted)

            for _ in 0..<steps {
                let index = Int.random(in: 0..<2, using: &random)
                let device = devices[index]
                let dice = Int.random(in: 0..<100, using: &random)
                if dice < 30 {
                    try await harness.controls.addFault(Self.transientFault(&random))
                } else if dice < 65 {
                    let shared = Int.random(in: 0..<3, using: &random) == 0
                    let id: String
                    if shared {
                        id = "s\(Int.random(in: 0..<2, using: &random))"
                    } else if owned[index].isEmpty || Int.random(in: 0..<3, using: &random) == 0 {
                        id = "\(prefixes[index])\(lastWritten.count)"
                        owned[index].append(id)
                    } else {
                        id = owned[index].randomElement(using: &random) ?? "\(prefixes[index])0"
                    }
                    let text = "t\(Int.random(in: 0..<1_000, using: &random))"
                    if let written = try await Self.write(id, text: text, on: device, random: &random), !shared {
                        lastWritten[id] = written
                        if written == nil { owned[index].removeAll { $0 == id } }
                    }
                } else if dice < 90 {
                    await device.engine.syncNow()
                } else {
                    clock.advance(by: .seconds(Int.random(in: 1...20, using: &random)))
                }
            }

            try await harness.controls.clearFaults()
            try await Self.settle(devices, clock: clock)

            let server = try await Self.serverRows(harness)
            for (index, device) in devices.enumerated() {
                #expect(try await device.context.pendingOperationCount() == 0, "device \(index), seed \(seed)")
                let local = Dictionary(
                    uniqueKeysWithValues: try await device.todos.query().fetchAll().map { ($0.id, $0.text) })
                #expect(local == server.live, "device \(index), seed \(seed)")
            }
            for (id, text) in lastWritten {
                #expect(server.live[id] == text, "\(id): the owner's last write, seed \(seed)")
            }
        }
    }

    /// Inserts, updates or deletes `id` as an app would; returns the text now stored locally (`.some(nil)`
    /// for a delete), or `nil` when the write was not possible (a delete of the item still pending).
    private static func write(_ id: String, text: String, on device: EngineDevice, random: inout SeededGenerator)
        async throws -> String??
    {
        if var item = try await device.todos.lookup(id: id) {
            if Int.random(in: 0..<5, using: &random) == 0 {
                try await device.todos.delete(item)
                return .some(nil)
            }
            item.text = text
            try await device.todos.update(item)
            return .some(text)
        }
        do {
            try await device.todos.insert(TodoItem(id: id, text: text))
            return .some(text)
        } catch SyncError.pendingOperationConflict(_, _, existing: .delete, attempted: .insert) {
            return nil
        } catch SyncError.duplicateInsert {
            return nil
        }
    }

    private static func transientFault(_ random: inout SeededGenerator) -> FaultRule {
        let actions: [FaultAction] = [.respond(status: 500), .respond(status: 503), .dropConnection, .lostResponse]
        return FaultRule(
            path: "/tables/TodoItem", matchesPrefix: true, occurrence: Int.random(in: 1...2, using: &random),
            action: actions.randomElement(using: &random)!)
    }

    /// Lets every backoff end and syncs until nothing is pending: operations dead after transient
    /// failures are retried; those the server refused for good (an update of an item deleted on the other
    /// device) are reverted to the server's copy, as an app's "sync activity" screen would offer.
    private static func settle(_ devices: [EngineDevice], clock: ManualSyncClock) async throws {
        for _ in 0..<30 {
            clock.advance(by: .seconds(3_600))
            var quiet = true
            for device in devices {
                for dead in try await device.context.deadOperations() {
                    if let status = dead.error?.status, (400..<500).contains(status) {
                        try await device.context.revertToServer(operationId: dead.id)
                    } else {
                        try await device.context.retryDeadOperations(ids: [dead.id])
                    }
                }
                let report = await device.engine.syncNow(reason: "settle")
                if case .failed = report.outcome { quiet = false }
                if try await device.context.pendingOperationCount() > 0 { quiet = false }
            }
            if quiet {
                for device in devices { await device.engine.syncNow(reason: "final") }
                return
            }
        }
        Issue.record("the devices never settled")
    }

    private static func serverRows(_ harness: SyncHarness) async throws -> (
        live: [String: String], deleted: Set<String>
    ) {
        let client = SyncClient(url: harness.url)
        var items: [JSONObject] = []
        while true {
            let page = try await client.query(
                table: "TodoItem", queryString: "__includeDeleted=true&$orderby=id&$skip=\(items.count)")
            if page.items.isEmpty { break }
            items += page.items
        }
        var live: [String: String] = [:]
        var deleted = Set<String>()
        for item in items {
            guard let id = item["id"]?.stringValue else { continue }
            if item["deleted"] == .bool(true) { deleted.insert(id) } else { live[id] = item["text"]?.stringValue ?? "" }
        }
        return (live, deleted)
    }
}
