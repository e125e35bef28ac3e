import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Seeded random sync between several devices and one `sync-server` with soft delete and injected faults:
/// once the faults stop and everything is pushed and pulled, every device holds exactly the server's live
/// rows, no deleted item is live anywhere, and nothing is pending.
///
/// Each run prints its seed. Replay one with `SYNCTABLES_CONVERGENCE_SEED=<seed>`; run longer or more with
/// `SYNCTABLES_CONVERGENCE_STEPS=<steps>` (default 300) and `SYNCTABLES_CONVERGENCE_SEEDS=<count>` (default 1):
///
/// ```sh
/// SYNCTABLES_CONVERGENCE_SEEDS=20 SYNCTABLES_CONVERGENCE_STEPS=1000 swift test --filter ConvergenceTests
/// ```
@Suite("Convergence under faults")
struct ConvergenceTests {
    enum Policy: String, CaseIterable, CustomTestStringConvertible {
        case clientWins, customMerge

        var testDescription: String { rawValue }

        var conflictPolicy: ConflictPolicy {
            switch self {
            case .clientWins: .clientWins
            case .customMerge: .custom(MergePolicy.resolve)
            }
        }
    }

    @Test(arguments: Policy.allCases)
    func devicesConvergeWithTheServerAfterRandomWritesAndFaults(policy: Policy) async throws {
        let runs = SeededRuns("SYNCTABLES_CONVERGENCE", defaultSteps: 300)
        try await runs.run("ConvergenceTests \(policy.rawValue)") { seed, steps in
            try await ConvergenceRun(seed: seed, steps: steps, policy: policy.conflictPolicy).run()
        }
    }
}

/// The custom policy of the test: a merge that keeps both sides' intent where it can.
enum MergePolicy {
    @Sendable static func resolve(_ conflict: TableOperationError) async throws -> ConflictResolution {
        guard let server = conflict.serverItem else { return .unresolved }
        if server["deleted"] == .bool(true) { return .cancelAndDiscardItem }  // a deletion is final
        var merged = server
        merged["deleted"] = nil
        if conflict.kind == .delete {
            return .retry(updatingItem: merged)  // our delete wins, against the server's version
        }
        let client = conflict.clientItem ?? JSONObject()
        let texts = [client["text"]?.stringValue, server["text"]?.stringValue].compactMap { $0 }
        merged["text"] = texts.max().map(JSONValue.string) ?? server["text"]
        merged["complete"] = .bool(client["complete"] == .bool(true) || server["complete"] == .bool(true))
        return .retry(updatingItem: merged)
    }
}

/// One seeded run: random steps, then the quiet phase and the checks.
struct ConvergenceRun {
    let seed: UInt64
    let steps: Int
    let policy: ConflictPolicy

    private static let ids = ["i0", "i1", "i2", "i3", "i4", "i5"]
    private static let texts = ["milk", "eggs", "bread", "tea"]

    func run() async throws {
        var random = SeededGenerator(seed: seed)
        try await SyncHarness.with(softDelete: .allTables, pageSize: 3) { harness in
            var devices: [Device] = []
            for _ in 0..<3 { devices.append(try await harness.device(conflictPolicy: policy)) }
            var offline = Set<Int>()

            for step in 0..<steps {
                let index = Int.random(in: 0..<devices.count, using: &random)
                let device = devices[index]
                let dice = Int.random(in: 0..<100, using: &random)
                switch dice {
                case 0..<35:
                    try await writeRandomly(on: device, random: &random, step: step)
                case 35..<55 where !offline.contains(index):
                    await ignoringSyncFailures { try await device.context.push() }
                    try await acceptServerDeletions(on: device)
                case 55..<75 where !offline.contains(index):
                    let incremental = Bool.random(using: &random)
                    await ignoringSyncFailures {
                        if incremental {
                            try await pullIncrementally(device)
                        } else {
                            try await device.todos.pull()
                        }
                    }
                    try await acceptServerDeletions(on: device)
                case 75..<90:
                    try await harness.controls.addFault(randomFault(&random))
                case 90..<95:
                    if offline.contains(index) { offline.remove(index) } else { offline.insert(index) }
                default:
                    try await harness.controls.clearFaults()
                }
            }

            try await harness.controls.clearFaults()
            try await settle(devices)
            try await check(devices, against: harness)
        }
    }

    /// An app's local write: insert an absent id, else update or delete it.
    private func writeRandomly(on device: Device, random: inout SeededGenerator, step: Int) async throws {
        let id = Self.ids.randomElement(using: &random) ?? "i0"
        let text = Self.texts.randomElement(using: &random) ?? "milk"
        let complete = Bool.random(using: &random)
        let deletes = Int.random(in: 0..<10, using: &random) < 3
        if var item = try await device.todos.lookup(id: id) {
            if deletes {
                try await device.todos.delete(item)
            } else {
                item.text = text
                item.complete = complete
                try await device.todos.update(item)
            }
        } else {
            do {
                try await device.todos.insert(TodoItem(id: id, text: text, complete: complete))
            } catch SyncError.pendingOperationConflict(_, _, existing: .delete, attempted: .insert) {
                // The queue refuses to re-create an item whose delete is still pending: the app waits.
            }
        }
    }

    private func randomFault(_ random: inout SeededGenerator) -> FaultRule {
        let methods: [String?] = ["POST", "PATCH", "DELETE", "GET", nil]
        let actions: [FaultAction] = [
            .lostResponse, .dropConnection, .respond(status: 500), .respond(status: 503), .delay(milliseconds: 5),
        ]
        return FaultRule(
            method: methods.randomElement(using: &random) ?? nil, path: "/tables/TodoItem", matchesPrefix: true,
            occurrence: Int.random(in: 1...3, using: &random),
            action: actions.randomElement(using: &random) ?? .lostResponse)
    }

    /// What an app does with an update the server answers 404: the item was deleted there, so the local
    /// change is dropped with it. (Conflicts are the policy's; anything else retries on the next push.)
    private func acceptServerDeletions(on device: Device) async throws {
        for error in try await device.context.pushErrors() where error.status == 404 && error.kind != .delete {
            try await error.cancelAndDiscardItem()
        }
    }

    /// Pushes and pulls every device until nothing is pending anywhere, then pulls once more.
    ///
    /// The pulls are incremental: a record skipped while its item had a pending operation is below the
    /// token afterwards, so only what push itself stores can bring such an item in line with the server.
    private func settle(_ devices: [Device]) async throws {
        for _ in 0..<20 {
            for device in devices {
                await ignoringSyncFailures { try await device.context.push() }
                try await acceptServerDeletions(on: device)
            }
            var quiet = true
            for device in devices {
                await ignoringSyncFailures { try await pullIncrementally(device) }
                let pending = try await device.context.pendingOperationCount()
                let errors = try await device.context.pushErrors()
                quiet = quiet && pending == 0 && errors.isEmpty
            }
            if quiet { break }
        }
        for device in devices { try await pullIncrementally(device) }
    }

    private func pullIncrementally(_ device: Device) async throws {
        try await device.todos.pull(device.todos.query(), queryId: "all")
    }

    private func check(_ devices: [Device], against harness: SyncHarness) async throws {
        let items = try await serverItems(harness)
        #expect(!items.isEmpty, "seed \(seed): the run synced nothing")
        let live = Set(items.filter { $0["deleted"] != .bool(true) }.map(Row.init))
        let deleted = Set(items.filter { $0["deleted"] == .bool(true) }.compactMap { $0["id"]?.stringValue })
        for (index, device) in devices.enumerated() {
            #expect(try await device.context.pendingOperationCount() == 0, "device \(index), seed \(seed)")
            let errors = try await device.context.pushErrors()
            #expect(errors.isEmpty, "device \(index), seed \(seed): \(errors)")
            let rows = try await device.todos.query().fetchAll()
            #expect(Set(rows.map(Row.init)) == live, "device \(index), seed \(seed)")
            let resurrected = rows.map(\.id).filter(deleted.contains)
            #expect(resurrected.isEmpty, "device \(index), seed \(seed): deleted on the server but live here")
        }
    }

    /// Every row the server holds, tombstones included, read page by page through the protocol.
    private func serverItems(_ harness: SyncHarness) async throws -> [JSONObject] {
        let client = SyncClient(url: harness.url)
        var items: [JSONObject] = []
        while true {
            let page = try await client.query(
                table: "TodoItem", queryString: "__includeDeleted=true&$orderby=id&$skip=\(items.count)")
            if page.items.isEmpty { return items }
            items += page.items
        }
    }

    private func ignoringSyncFailures(_ body: () async throws -> Void) async {
        // Faults make pushes and pulls fail on purpose; the checks at the end are what must hold.
        do { try await body() } catch {}
    }
}

/// What must agree between a device and the server.
private struct Row: Hashable, CustomStringConvertible {
    var id: String
    var text: String?
    var complete: Bool?
    var version: String?

    init(_ item: TodoItem) {
        (id, text, complete, version) = (item.id, item.text, item.complete, item.version)
    }

    init(_ object: JSONObject) {
        id = object["id"]?.stringValue ?? ""
        text = object["text"]?.stringValue
        if case .bool(let value)? = object["complete"] { complete = value }
        version = object["version"]?.stringValue
    }

    var description: String { "\(id)=\(text ?? "nil")/\(complete.map(String.init) ?? "nil")@\(version ?? "nil")" }
}
