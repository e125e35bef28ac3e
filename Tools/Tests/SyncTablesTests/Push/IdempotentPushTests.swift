import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Pushed writes carry `Idempotency-Key: "<operation id>.<operation version>"` to a server that replays keyed
/// writes, so a write whose answer was lost completes on the next push with its first answer, even when
/// another device changed the item meanwhile.
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
            _ = try await harness.takeRequests()

            let summary = try await first.context.push(options: options)

            #expect(summary.pushedOperations == 1 && summary.resolvedConflicts == 0)
            let patches = try await harness.takeRequests().filter { $0.method == "PATCH" }
            #expect(patches.map { $0.header("Idempotency-Key") } == ["\"\(operation.id).\(operation.version)\""])
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
            let expected = try await device.context.pendingOperations().map { "\"\($0.id).\($0.version)\"" }
            _ = try await harness.takeRequests()

            try await device.context.push()
            let batched = try await harness.takeRequests()
            try await Self.queueTheSameKinds(on: device)
            let singly = try await device.context.pendingOperations().map { "\"\($0.id).\($0.version)\"" }
            try await device.context.push(options: PushOptions(batchSize: 1))
            let single = try await harness.takeRequests()

            #expect(batched.map(\.method) == ["POST", "PATCH", "DELETE"])
            #expect(batched.map { $0.header("Idempotency-Key") } == expected)
            #expect(single.map(\.method) == ["POST", "PATCH", "DELETE"])
            #expect(single.map { $0.header("Idempotency-Key") } == singly)
        }
    }

    @Test func aChangedOperationIsANewRequestWithANewKey() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            try await device.todos.insert(TodoItem(id: "a", text: "x"))
            try await device.context.push()
            var item = try #require(try await device.todos.lookup(id: "a"))
            item.text = "y"
            try await device.todos.update(item)
            try await harness.controls.addFault(
                FaultRule(method: "PATCH", path: "/tables/TodoItem/a", occurrence: nil, action: .lostResponse))
            _ = try await requirePushFailure { try await device.context.push() }
            try await harness.controls.clearFaults()
            item.text = "z"
            try await device.todos.update(item)
            let operation = try #require(try await device.context.pendingOperations().first)
            _ = try await harness.takeRequests()

            // Not a repeat: it runs, and meets the lost write's version as a conflict.
            let failure = try await requirePushFailure { try await device.context.push() }

            let patch = try #require(try await harness.takeRequests().last { $0.method == "PATCH" })
            #expect(operation.version == 2)
            #expect(patch.header("Idempotency-Key") == "\"\(operation.id).2\"")
            #expect(failure.errors.map(\.status) == [412])
            #expect(try await harness.serverItem("a")?["text"] == "y")
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

    /// Queues an insert, an update and a delete again.
    private static func queueTheSameKinds(on device: Device) async throws {
        try await device.todos.insert(TodoItem(id: "d", text: "d"))
        var c = try #require(try await device.todos.lookup(id: "c"))
        c.text = "sea"
        try await device.todos.update(c)
        try await device.todos.delete(id: "b")
    }
}
