import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Pushed writes carry `Idempotency-Key: "<operation id>.<kind>[.<If-Match version>]"` to a server that replays
/// keyed writes, so a write whose answer was lost completes on the next push with its first answer, even when
/// another device changed the item meanwhile or the item was edited again on the device.
@Suite("Idempotent push")
struct IdempotentPushTests {
    private static let rules = SyncRules(fieldRules: ["quantity": .counter])

    @Test(arguments: [PushOptions(batchSize: 1), PushOptions()])
    func aLostUpdateIsReplayedAndItsCounterChangeCountsOnce(options: PushOptions) async throws {
        try await SyncHarness.with { harness in
            let (first, second) = try await harness.twoChoreDevices(
                sharing: Chore(id: "a", quantity: 10), rules: Self.rules)
            try await first.edit("a") { $0.quantity -= 3 }
            // The write commits, its answer is lost; libcurl may send it once more by itself, lost as well.
            try await harness.controls.addFault(
                FaultRule(method: "PATCH", path: "/tables/Chore/a", occurrence: nil, action: .lostResponse))
            let failure = try await requirePushFailure { try await first.context.push(options: options) }
            #expect(failure.status == .abortedNetwork)
            try await harness.controls.clearFaults()
            #expect(try await harness.serverChore("a")?["quantity"] == 7)
            // Another device takes 2 more: merged per field on the server's 7.
            try await second.edit("a") { $0.quantity -= 2 }
            try await second.context.push()
            #expect(try await harness.serverChore("a")?["quantity"] == 5)
            let operation = try #require(try await first.context.pendingOperations().first)
            let based = try #require(try await first.chores.lookup(id: "a")?.version)
            _ = try await harness.takeRequests()

            let summary = try await first.context.push(options: options)

            #expect(summary.pushedOperations == 1 && summary.resolvedConflicts == 0)
            let patches = try await harness.takeRequests().filter { $0.method == "PATCH" }
            #expect(patches.map { $0.header("Idempotency-Key") } == ["\"\(operation.id).update.\(based)\""])
            #expect(try await harness.serverChore("a")?["quantity"] == 5, "the lost −3 counted once")
            #expect(try await first.context.pendingOperationCount() == 0)
            #expect(try await first.context.pushErrors().isEmpty)
            try await first.chores.pull()
            #expect(try await first.chores.lookup(id: "a")?.quantity == 5)
        }
    }

    @Test func everyWriteCarriesItsOperationsKeySinglyAndInBatches() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            for id in ["a", "b"] { try await device.todos.insert(TodoItem(id: id, text: id)) }
            try await device.context.push()
            try await device.todos.insert(TodoItem(id: "c", text: "c"))
            var b = try #require(try await device.todos.lookup(id: "b"))
            b.text = "bee"
            try await device.todos.update(b)
            try await device.todos.delete(id: "a")
            let expected = try await Self.keys(of: device)
            _ = try await harness.takeRequests()

            try await device.context.push()
            let batched = try await harness.takeRequests()
            try await Self.queueTheSameKinds(on: device)
            let singly = try await Self.keys(of: device)
            try await device.context.push(options: PushOptions(batchSize: 1))
            let single = try await harness.takeRequests()

            #expect(batched.map(\.method) == ["POST", "PATCH", "DELETE"])
            #expect(batched.map { $0.header("Idempotency-Key") } == expected)
            #expect(single.map(\.method) == ["POST", "PATCH", "DELETE"])
            #expect(single.map { $0.header("Idempotency-Key") } == singly)
        }
    }

    @Test(arguments: [PushOptions(batchSize: 1), PushOptions()])
    func anEditAfterALostAnswerKeepsTheKeySoTheCounterChangeCountsOnce(options: PushOptions) async throws {
        try await SyncHarness.with { harness in
            let (first, second) = try await harness.twoChoreDevices(
                sharing: Chore(id: "a", quantity: 10), rules: Self.rules)
            try await first.edit("a") { $0.quantity -= 3 }
            try await harness.controls.addFault(
                FaultRule(method: "PATCH", path: "/tables/Chore/a", occurrence: nil, action: .lostResponse))
            _ = try await requirePushFailure { try await first.context.push(options: options) }
            try await harness.controls.clearFaults()
            // Edited again before the resend, and another device takes 2 meanwhile.
            try await first.edit("a") { $0.quantity -= 1 }
            try await second.edit("a") { $0.quantity -= 2 }
            try await second.context.push()
            #expect(try await harness.serverChore("a")?["quantity"] == 5)
            let operation = try #require(try await first.context.pendingOperations().first)
            #expect(operation.version == 2)
            let based = try #require(try await first.chores.lookup(id: "a")?.version)
            _ = try await harness.takeRequests()

            let summary = try await first.context.push(options: options)

            // The resend replays the lost −3; the −1 goes after it, merged with the other device's −2.
            let keys = try await harness.takeRequests().filter { $0.method == "PATCH" }
                .map { $0.header("Idempotency-Key") ?? "" }
            #expect(keys.first == "\"\(operation.id).update.\(based)\"")
            #expect(keys.count == 3 && Set(keys).count == 3, "replay, conflict at version 2, merged write: \(keys)")
            #expect(try await harness.serverChore("a")?["quantity"] == 4, "10 − 3 − 2 − 1: the −3 counted once")
            #expect(summary.resolvedConflicts == 1)
            #expect(try await first.context.pendingOperationCount() == 0)
            try await first.chores.pull()
            #expect(try await first.chores.lookup(id: "a")?.quantity == 4)
        }
    }

    @Test func anInsertEditedAfterALostAnswerIsReplayedThenUpdated() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            try await device.todos.insert(TodoItem(id: "a", text: "x"))
            try await harness.controls.addFault(
                FaultRule(method: "POST", path: "/tables/TodoItem", occurrence: nil, action: .lostResponse))
            _ = try await requirePushFailure { try await device.context.push() }
            try await harness.controls.clearFaults()
            var item = try #require(try await device.todos.lookup(id: "a"))
            item.text = "y"
            try await device.todos.update(item)
            _ = try await harness.takeRequests()

            let summary = try await device.context.push()

            let writes = try await harness.takeRequests().map(\.method)
            #expect(writes == ["POST", "PATCH"], "the replayed insert, then the edit on top of it")
            #expect(summary.pushedOperations == 1 && summary.resolvedConflicts == 0)
            #expect(try await harness.serverItem("a")?["text"] == "y")
            #expect(try await device.context.pendingOperationCount() == 0)
            #expect(try await device.context.pushErrors().isEmpty)
        }
    }

    @Test func aServerWithoutTheExtensionGetsNoKey() async throws {
        try await SyncHarness.with(idempotencyKeyRetention: .zero) { harness in
            let device = try await harness.device()
            try await device.todos.insert(TodoItem(id: "a", text: "x"))
            try await device.todos.insert(TodoItem(id: "b", text: "x"))
            try await device.context.push()
            try await device.todos.insert(TodoItem(id: "c", text: "x"))
            try await device.context.push(options: PushOptions(batchSize: 1))

            let requests = try await harness.takeRequests(includingExtensions: true)
            #expect(requests.filter { $0.header("Idempotency-Key") != nil }.isEmpty)
            let batch = try #require(requests.first { $0.path == "/sync/batch" })
            #expect(batch.body?.contains("idempotencyKey") == false)
        }
    }

    @Test func aPushOfOneRequestEachDoesNotAskForTheExtensions() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            try await device.todos.insert(TodoItem(id: "a", text: "x"))

            try await device.context.push(options: PushOptions(batchSize: 1))

            let requests = try await harness.takeRequests(includingExtensions: true)
            #expect(requests.map { "\($0.method) \($0.path)" } == ["POST /tables/TodoItem"])
            #expect(requests.first?.header("Idempotency-Key") == nil)
        }
    }

    /// The keys of the queued operations, as their requests carry them.
    private static func keys(of device: Device) async throws -> [String] {
        var keys: [String] = []
        for operation in try await device.context.pendingOperations() {
            var key = "\(operation.id).\(operation.kind)"
            if operation.kind != .insert {
                let item = try await device.todos.lookup(id: operation.itemId)
                let version = operation.item?["version"]?.stringValue ?? item?.version
                key += "." + (version ?? "")
            }
            keys.append("\"\(key)\"")
        }
        return keys
    }

    /// Queues an insert, an update and a delete again.
    private static func queueTheSameKinds(on device: Device) async throws {
        try await device.todos.insert(TodoItem(id: "d", text: "d"))
        var c = try #require(try await device.todos.lookup(id: "c"))
        c.text = "sea"
        try await device.todos.update(c)
        try await device.todos.delete(id: "b")
    }
}
