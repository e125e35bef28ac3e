import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Seeded random sync of items merged per field, between several devices and one `sync-server` with
/// injected faults: once the faults stop and everything is pushed and pulled, no increment of a counter is
/// lost or counted twice (each final value is the sum of every device's deltas), every device's edits of its
/// own field survive, the labels are exactly those added and not removed, every device holds the server's
/// rows, each merge's trace agrees with what its push left on the server, and no child row ever reaches the
/// server before its parent (the server checks every reference, and would refuse such a child with 422).
///
/// Each run prints its seed. Replay one with `SYNCTABLES_CONVERGENCE_SEED=<seed>`; run longer or more with
/// `SYNCTABLES_CONVERGENCE_STEPS=<steps>` (default 300) and `SYNCTABLES_CONVERGENCE_SEEDS=<count>` (default 1):
///
/// ```sh
/// SYNCTABLES_CONVERGENCE_SEEDS=20 swift test --filter MergeConvergenceTests
/// ```
@Suite("Merge convergence under faults")
struct MergeConvergenceTests {
    @Test func countersFieldsAndSetsConvergeAfterRandomEditsAndFaults() async throws {
        try await SeededRuns("SYNCTABLES_CONVERGENCE", defaultSteps: 300).run("MergeConvergenceTests") { seed, steps in
            try await MergeConvergenceRun(seed: seed, steps: steps).run()
        }
    }
}

/// The item of the run: a counter, a set of labels, and one field per device that only that device edits.
struct Tally: SyncItem, SyncRulesProvider, Equatable {
    var id: String
    var count: Int = 0
    var labels: [String] = []
    var own0: String = ""
    var own1: String = ""
    var own2: String = ""
    var version: String?

    static let syncRules = SyncRules(keys: CodingKeys.self) {
        $0.merge(.count, .counter)
        $0.merge(.labels, .union)
        $0.mergeOtherFields(.lastWriter)
    }

    static let ownFields = ["own0", "own1", "own2"]
}

/// A parent created during the run.
struct Bin: SyncItem, Equatable {
    var id: String
    var name: String = ""
    var version: String?
}

/// A child of a bin, often created before its bin reached the server.
struct Chip: SyncItem, SyncRulesProvider, Equatable {
    var id: String
    var binId: String
    var note: String = ""
    var version: String?

    static let syncRules = SyncRules(keys: CodingKeys.self) { $0.parent(.binId, Bin.self) }
}

/// The server's tables: every chip's bin must exist when the chip is written.
private let convergenceTables = """
    tables:
      Tally:
        access: authenticated
        columns: { count: integer, labels: array, own0: string, own1: string, own2: string }
      Bin:
        access: authenticated
        columns: { name: string }
      Chip:
        access: authenticated
        columns: { binId: string, note: string }
        references: { binId: Bin }
    """

/// One device's tables.
private struct ConvergenceDevice {
    let tallies: SyncTable<Tally>
    let bins: SyncTable<Bin>
    let chips: SyncTable<Chip>
    var context: SyncContext { tallies.context }
}

/// What the devices did, which the server must show in the end.
private struct Intent {
    var sums: [String: Int] = [:]
    var labels: [String: Set<String>] = [:]
    /// The last value each device gave its own field of each item.
    var own: [String: [String: String]] = [:]
}

/// One seeded run: setup, random steps, the quiet phase and the checks.
struct MergeConvergenceRun {
    let seed: UInt64
    let steps: Int

    private static let ids = ["t0", "t1", "t2", "t3"]

    func run() async throws {
        var random = SeededGenerator(seed: seed)
        try await SyncHarness.with(softDelete: .allTables, pageSize: 3, declaredTables: convergenceTables) { harness in
            var all: [ConvergenceDevice] = []
            for _ in 0..<Tally.ownFields.count {
                let context = try await SyncContext(
                    store: try SQLiteStore(path: harness.directory.newDatabasePath()),
                    client: SyncClient(url: harness.url, headers: harness.authorization))
                all.append(
                    ConvergenceDevice(
                        tallies: try await context.table(Tally.self), bins: try await context.table(Bin.self),
                        chips: try await context.table(Chip.self)))
            }
            let devices = all.map(\.tallies)
            try await devices[0].insert(contentsOf: Self.ids.map { Tally(id: $0) })
            try await devices[0].context.push()
            for device in devices { try await device.pull() }

            var intent = Intent()
            var offline = Set<Int>()
            var historySeen = [Int](repeating: 0, count: devices.count)
            var traceChecks = 0
            for step in 0..<steps {
                let index = Int.random(in: 0..<devices.count, using: &random)
                let device = devices[index]
                switch Int.random(in: 0..<100, using: &random) {
                case 0..<38:
                    try await edit(on: device, index: index, step: step, intent: &intent, random: &random)
                case 38..<45:
                    try await createParentOrChild(on: all[index], step: step, random: &random)
                case 45..<65 where !offline.contains(index):
                    let before = historySeen[index]
                    let pushed = await succeeded { try await device.context.push() }
                    historySeen[index] = try await device.context.history(limit: 1).first?.sequence ?? before
                    if pushed {
                        traceChecks += try await checkTraces(of: device, after: before, harness)
                    }
                case 65..<80 where !offline.contains(index):
                    let incremental = Bool.random(using: &random)
                    _ = await succeeded {
                        if incremental {
                            try await device.pull(device.query(), queryId: "all")
                        } else {
                            try await device.pull()
                        }
                    }
                    historySeen[index] = try await device.context.history(limit: 1).first?.sequence ?? 0
                case 80..<90:
                    try await harness.controls.addFault(Self.randomFault(&random))
                case 90..<95:
                    if offline.contains(index) { offline.remove(index) } else { offline.insert(index) }
                default:
                    try await harness.controls.clearFaults()
                }
            }

            try await harness.controls.clearFaults()
            try await settle(devices)
            try await check(devices, intent: intent, harness: harness)
            try await checkParentsCameFirst(all, harness: harness)
            print("MergeConvergenceTests seed \(seed): \(traceChecks) merge traces checked against the server")
        }
    }

    /// An app's local edit: a counter delta, a label added or removed, or the device's own field.
    private func edit(
        on device: SyncTable<Tally>, index: Int, step: Int, intent: inout Intent, random: inout SeededGenerator
    ) async throws {
        let id = Self.ids.randomElement(using: &random) ?? "t0"
        guard var tally = try await device.lookup(id: id) else { return }
        switch Int.random(in: 0..<4, using: &random) {
        case 0, 1:
            let delta = [-3, -2, -1, 1, 2, 3].randomElement(using: &random) ?? 1
            tally.count += delta
            intent.sums[id, default: 0] += delta
        case 2:
            let mine = tally.labels.filter { $0.hasPrefix("d\(index)-") }
            if let removed = mine.randomElement(using: &random), Bool.random(using: &random) {
                tally.labels.removeAll { $0 == removed }
                intent.labels[id, default: []].remove(removed)
            } else {
                let label = "d\(index)-s\(step)"
                tally.labels.append(label)
                intent.labels[id, default: []].insert(label)
            }
        default:
            let value = "d\(index)-s\(step)"
            switch index {
            case 0: tally.own0 = value
            case 1: tally.own1 = value
            default: tally.own2 = value
            }
            intent.own[Tally.ownFields[index], default: [:]][id] = value
        }
        try await device.update(tally)
    }

    /// A new bin, or a new chip in a bin the device holds (whose insert may still wait in its queue).
    private func createParentOrChild(on device: ConvergenceDevice, step: Int, random: inout SeededGenerator)
        async throws
    {
        let bins = try await device.bins.query().fetchAll()
        if let bin = bins.randomElement(using: &random), Bool.random(using: &random) {
            try await device.chips.insert(Chip(id: "c\(step)", binId: bin.id))
        } else {
            try await device.bins.insert(Bin(id: "b\(step)", name: "bin \(step)"))
        }
    }

    /// No chip was ever refused for a missing bin, every chip reached the server, and each one's bin is there.
    private func checkParentsCameFirst(_ devices: [ConvergenceDevice], harness: SyncHarness) async throws {
        var chips = 0
        for (index, device) in devices.enumerated() {
            let refused = try await device.context.history(table: "Chip").filter { $0.status == 422 }
            #expect(refused.isEmpty, "seed \(seed): device \(index) sent a chip before its bin: \(refused)")
            for chip in try await device.chips.query().fetchAll() {
                chips += 1
                #expect(try await harness.serverItem(chip.id, table: "Chip") != nil, "seed \(seed): \(chip.id)")
                #expect(try await harness.serverItem(chip.binId, table: "Bin") != nil, "seed \(seed): \(chip.binId)")
            }
        }
        print("MergeConvergenceTests seed \(seed): \(chips) chips checked against their bins")
    }

    /// A fault: a refused or dropped request, a lost answer, or a delay. A write whose answer was lost is
    /// answered by the server's idempotency key when it is sent again, also after later local edits.
    private static func randomFault(_ random: inout SeededGenerator) -> FaultRule {
        let methods: [String?] = ["PATCH", "GET", "POST", nil]
        let actions: [FaultAction] = [
            .dropConnection, .respond(status: 500), .respond(status: 503), .delay(milliseconds: 5), .lostResponse,
        ]
        return FaultRule(
            method: methods.randomElement(using: &random) ?? nil, path: "/", matchesPrefix: true,
            occurrence: Int.random(in: 1...3, using: &random),
            action: actions.randomElement(using: &random) ?? .dropConnection)
    }

    /// Checks each merge a push just made against the server: its counter step `S + (D)` is what the
    /// server holds for the field, as the push's own write left it (the run is sequential, so nothing
    /// wrote the item since). Returns how many steps it checked.
    private func checkTraces(of device: SyncTable<Tally>, after seen: Int, _ harness: SyncHarness)
        async throws -> Int
    {
        let entries = Array(try await device.context.history().filter { $0.sequence > seen }.reversed())
        var checked = 0
        for (offset, entry) in entries.enumerated() where entry.outcome == .resolved {
            let later = entries.dropFirst(offset + 1).filter { $0.operationId == entry.operationId }
            // Only a merge whose write then went through in this push, and was not merged again.
            guard later.first?.outcome == .pushed, later.count == 1 else { continue }
            for step in entry.merge {
                #expect(step.field == "count" || step.field == "labels" || step.field.hasPrefix("own"), "\(step)")
                guard step.rule == .counter, let expected = Self.counterResult(step.summary) else { continue }
                let server = try await Self.read(entry.itemId, harness)
                #expect(server?["count"] == .integer(Int64(expected)), "seed \(seed): \(entry.message ?? "")")
                checked += 1
            }
        }
        return checked
    }

    /// The server's copy of an item, read again while an injected fault (each fires once) answers instead.
    private static func read(_ id: String, _ harness: SyncHarness) async throws -> JSONObject? {
        for _ in 0..<5 {
            if let item = try? await harness.serverItem(id, table: "Tally") { return item }
        }
        return try await harness.serverItem(id, table: "Tally")
    }

    /// The value a counter step's summary `S + (D)` names.
    private static func counterResult(_ summary: String) -> Int? {
        let parts = summary.replacingOccurrences(of: "−", with: "-").split(separator: "+", maxSplits: 1)
        guard parts.count == 2, let base = Int(parts[0].trimmingCharacters(in: .whitespaces)) else { return nil }
        let delta = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: " ()"))
        return Int(delta).map { base + $0 }
    }

    /// Pushes and pulls every device until nothing is pending anywhere, then pulls once more.
    private func settle(_ devices: [SyncTable<Tally>]) async throws {
        for _ in 0..<20 {
            for device in devices { _ = await succeeded { try await device.context.push() } }
            var quiet = true
            for device in devices {
                _ = await succeeded { try await device.pull(device.query(), queryId: "all") }
                let pending = try await device.context.pendingOperationCount()
                quiet = quiet && pending == 0
            }
            if quiet { break }
        }
        for device in devices { try await device.pull() }
    }

    private func check(_ devices: [SyncTable<Tally>], intent: Intent, harness: SyncHarness) async throws {
        let context = "seed \(seed)"
        var server: [String: JSONObject] = [:]
        for id in Self.ids { server[id] = try await harness.serverItem(id, table: "Tally") }
        for id in Self.ids {
            let item = try #require(server[id], "\(context): \(id) is missing on the server")
            #expect(item["count"] == .integer(Int64(intent.sums[id] ?? 0)), "\(context): the sum of \(id)'s deltas")
            let labels = Set((item["labels"]?.arrayValue ?? []).compactMap(\.stringValue))
            #expect(labels == intent.labels[id] ?? [], "\(context): \(id)'s labels")
            for field in Tally.ownFields {
                #expect(item[field] == .string(intent.own[field]?[id] ?? ""), "\(context): \(id).\(field)")
            }
        }
        for (index, device) in devices.enumerated() {
            #expect(try await device.context.pendingOperationCount() == 0, "\(context): device \(index) pending")
            for id in Self.ids {
                let local = try #require(try await device.lookup(id: id))
                let item = try #require(server[id])
                #expect(local.count == item["count"]?.int64Value.map(Int.init), "\(context): device \(index) \(id)")
                #expect(local.version == item["version"]?.stringValue, "\(context): device \(index) \(id) version")
            }
        }
    }

    /// Runs a sync action that faults may make fail on purpose; the checks at the end are what must hold.
    private func succeeded(_ body: () async throws -> Void) async -> Bool {
        do {
            try await body()
            return true
        } catch {
            return false
        }
    }
}
