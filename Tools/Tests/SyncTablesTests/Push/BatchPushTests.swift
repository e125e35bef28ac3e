import Foundation
import SlowLink
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Batched push against a real `sync-server`: each operation of a batch keeps exactly the semantics of its
/// own request (order, errors, conflicts, replays after a lost answer), and servers without batches get
/// one request per operation.
@Suite("Batched push")
struct BatchPushTests {
    private static let batched = PushOptions(batchSize: 20)

    @Test func batchesCarryTheQueueInOrderAndTheServerAppliesEachOperationAsItsOwnRequest() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            let queued = try await QueuedWork.make(on: device, harness: harness, seeded: 20, inserts: 30)
            let events = device.context.events

            let summary = try await device.context.push(options: Self.batched)

            let requests = try await harness.takeRequests(includingExtensions: true)
            #expect(requests.first.map { "\($0.method) \($0.path)" } == "GET /sync/capabilities")
            // 30 inserts, 10 updates, 5 deletes: batches of 20, 20 and 5.
            #expect(requests.filter { $0.path == "/sync/batch" }.count == 3)
            // Each operation reached the server as the request it stands for, in queue order.
            #expect(requests.filter { $0.path.hasPrefix("/tables/") }.map(\.line) == queued.expectedRequests)
            #expect(summary.pushedOperations == 45)
            #expect(try await device.context.pendingOperationCount() == 0)
            try await queued.expectServerHoldsTheResult(harness, device: device)
            var pushedEvents = 0
            for await event in events {
                if case .operationPushed = event { pushedEvents += 1 }
                if case .pushFinished = event { break }
            }
            #expect(pushedEvents == 45)
        }
    }

    @Test func aDefaultPushSendsBatchesAsLargeAsTheServerTakes() async throws {
        try await SyncHarness.with(maxBatchOperations: 10) { harness in
            let device = try await harness.device()
            let queued = try await QueuedWork.make(on: device, harness: harness, seeded: 20, inserts: 30)

            try await device.context.push()

            let requests = try await harness.takeRequests(includingExtensions: true)
            // 45 operations, at most 10 per batch as the server says.
            #expect(
                requests.filter { $0.path.hasPrefix("/sync/") }.map(\.line)
                    == ["GET /sync/capabilities"] + Array(repeating: "POST /sync/batch", count: 5))
            #expect(requests.filter { $0.path.hasPrefix("/tables/") }.map(\.line) == queued.expectedRequests)
            try await queued.expectServerHoldsTheResult(harness, device: device)
        }
    }

    @Test func batchSizeOneSendsOneRequestPerOperationWithoutAskingForCapabilities() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            let queued = try await QueuedWork.make(on: device, harness: harness, seeded: 5, inserts: 5)

            try await device.context.push(options: PushOptions(batchSize: 1))

            #expect(try await harness.takeRequests(includingExtensions: true).map(\.line) == queued.expectedRequests)
            try await queued.expectServerHoldsTheResult(harness, device: device)
        }
    }

    @Test func theServerIsAskedForItsCapabilitiesOncePerClient() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            try await device.todos.insert(TodoItem(id: "a", text: "a"))
            try await device.context.push()
            try await device.todos.insert(TodoItem(id: "b", text: "b"))
            try await device.context.push()

            let requests = try await harness.takeRequests(includingExtensions: true).map(\.line)
            #expect(requests.filter { $0 == "GET /sync/capabilities" }.count == 1)
            #expect(requests.filter { $0 == "POST /sync/batch" }.count == 2)
        }
    }

    @Test func batchBodiesGoGzippedToAServerThatTakesCompressedBodies() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            let queued = try await QueuedWork.make(on: device, harness: harness, seeded: 20, inserts: 30)

            try await device.context.push(options: Self.batched)

            let batches = try await harness.takeRequests(includingExtensions: true).filter { $0.path == "/sync/batch" }
            #expect(batches.count == 3)
            // The two full batches are over the 1 KiB worth compressing; the server logs the decoded body.
            #expect(batches.prefix(2).allSatisfy { $0.headers["content-encoding"] == "gzip" })
            #expect(batches.allSatisfy { $0.bodyKeys == ["operations"] })
            try await queued.expectServerHoldsTheResult(harness, device: device)
        }
    }

    @Test func theOutcomesOfABatchCommitInOneStoreTransactionCountedByAStoreWrapper() async throws {
        try await SyncHarness.with { harness in
            let store = TransactionCountingStore(base: try SQLiteStore(path: harness.directory.newDatabasePath()))
            let context = try await SyncContext(store: store, client: SyncClient(url: harness.url))
            let todos = try await context.table(TodoItem.self)
            for index in 0..<40 { try await todos.insert(TodoItem(id: "t\(index)", text: "item \(index)")) }
            let before = store.writes

            let summary = try await context.push(options: Self.batched)

            #expect(summary.pushedOperations == 40)
            // Two batches: a claim and a commit each, plus the lease, the queue count, the last (empty)
            // claim and the error read. One commit per operation would be over 40.
            let writes = store.writes - before
            #expect(writes < 12, "\(writes) transactions")
            #expect(try await harness.serverItem("t39")?["text"] == "item 39")
            try await context.close()
        }
    }

    @Test func aFailingOperationInABatchRecordsItsErrorAndThePushGoesOn() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            let queued = try await QueuedWork.make(on: device, harness: harness, seeded: 20, inserts: 30)
            try await harness.controls.addFault(
                FaultRule(method: "PATCH", path: "/tables/TodoItem/s3", action: .respond(status: 500)))

            let failure = try await requirePushFailure {
                try await device.context.push(options: Self.batched)
            }

            #expect(failure.status == .completedWithErrors)
            #expect(failure.errors.map(\.itemId) == ["s3"])
            #expect(failure.errors.first?.status == 500)
            #expect(failure.summary.pushedOperations == 44)
            #expect(try await device.context.pendingOperations().map(\.itemId) == ["s3"])
            try await device.context.push(options: Self.batched)  // the fault is spent
            try await queued.expectServerHoldsTheResult(harness, device: device)
        }
    }

    @Test func aConflictInTheMiddleOfABatchIsRecordedWithTheServerItem() async throws {
        try await SyncHarness.with { harness in
            let (first, second) = try await twoDevicesSharing(TodoItem(id: "a", text: "base"), harness)
            try await edit("a", to: "from first", on: first)
            try await first.context.push()
            try await second.todos.insert(TodoItem(id: "x", text: "before"))
            try await edit("a", to: "from second", on: second)
            try await second.todos.insert(TodoItem(id: "y", text: "after"))

            let failure = try await requirePushFailure {
                try await second.context.push(options: Self.batched)
            }

            #expect(failure.errors.map(\.status) == [412])
            #expect(failure.errors.first?.serverItem?["text"] == "from first")
            #expect(try await harness.serverItem("x")?["text"] == "before")
            #expect(try await harness.serverItem("y")?["text"] == "after")
            #expect(try await second.context.pendingOperations().map(\.itemId) == ["a"])
        }
    }

    @Test func aConflictInABatchResolvedClientWinsIsSentAgainOnceWithTheServersVersion() async throws {
        try await SyncHarness.with { harness in
            let (first, second) = try await twoDevicesSharing(TodoItem(id: "a", text: "base"), harness, .clientWins)
            try await edit("a", to: "from first", on: first)
            try await first.context.push()
            try await second.todos.insert(TodoItem(id: "x", text: "before"))
            try await edit("a", to: "from second", on: second)
            try await second.todos.insert(TodoItem(id: "y", text: "after"))
            _ = try await harness.takeRequests(includingExtensions: true)

            let summary = try await second.context.push(options: Self.batched)

            #expect(summary.resolvedConflicts == 1)
            let writes = try await harness.takeRequests(includingExtensions: true).filter {
                $0.path.hasPrefix("/tables/")
            }.map(\.line)
            #expect(
                writes == [
                    "POST /tables/TodoItem", "PATCH /tables/TodoItem/a", "POST /tables/TodoItem",
                    "PATCH /tables/TodoItem/a",
                ])
            #expect(try await harness.serverItem("a")?["text"] == "from second")
            #expect(try await second.context.pendingOperationCount() == 0)
            #expect(try await second.todos.lookup(id: "a")?.version == harness.serverItem("a")?["version"]?.stringValue)
        }
    }

    @Test func aBatchWhoseAnswerIsCutMidwayByTheLinkIsReplayedWithoutDuplicatesOrErrors() async throws {
        try await SyncHarness.with { harness in
            let proxy = try await SlowLinkProxy(
                upstreamPort: try #require(harness.server.port),
                link: SlowLinkConfiguration(roundTrip: .milliseconds(20)))
            do {
                let device = try await harness.device(url: proxy.url)
                let queued = try await QueuedWork.make(on: device, harness: harness, seeded: 20, inserts: 30)
                proxy.dropResponse(toRequestContaining: "POST /sync/batch", afterBytes: 400)

                let failure = try await requirePushFailure {
                    try await device.context.push(options: Self.batched)
                }
                #expect(failure.status == .abortedNetwork)
                #expect(proxy.droppedConnections == 1)

                // The server applied the whole first batch; sent again, each of its operations is recognised.
                try await device.context.push(options: Self.batched)
                #expect(try await device.context.pushErrors().isEmpty)
                #expect(try await device.context.pendingOperationCount() == 0)
                try await queued.expectServerHoldsTheResult(harness, device: device)
                try await device.context.close()
            } catch {
                try await proxy.close()
                throw error
            }
            try await proxy.close()
        }
    }

    @Test func aServerWithoutTheBatchCapabilityGetsOneRequestPerOperation() async throws {
        try await SyncHarness.with(maxBatchOperations: 0) { harness in
            let device = try await harness.device()
            let queued = try await QueuedWork.make(on: device, harness: harness, seeded: 5, inserts: 5)

            try await device.context.push(options: Self.batched)

            let requests = try await harness.takeRequests(includingExtensions: true)
            #expect(requests.map(\.line) == ["GET /sync/capabilities"] + queued.expectedRequests)
            try await queued.expectServerHoldsTheResult(harness, device: device)
        }
    }

    @Test func aServerAnswering404ToTheBatchGetsOneRequestPerOperationFromThenOn() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            let queued = try await QueuedWork.make(on: device, harness: harness, seeded: 5, inserts: 5)
            try await harness.controls.addFault(
                FaultRule(method: "POST", path: "/sync/batch", action: .respond(status: 404)))

            try await device.context.push(options: Self.batched)

            var requests = try await harness.takeRequests(includingExtensions: true)
            #expect(
                requests.map(\.line) == ["GET /sync/capabilities", "POST /sync/batch"] + queued.expectedRequests)
            try await queued.expectServerHoldsTheResult(harness, device: device)

            // The client remembers: the next push neither asks again nor tries a batch.
            try await device.todos.insert(TodoItem(id: "later", text: "later"))
            _ = try await harness.takeRequests(includingExtensions: true)
            try await device.context.push(options: Self.batched)
            requests = try await harness.takeRequests(includingExtensions: true)
            #expect(requests.map(\.line) == ["POST /tables/TodoItem"])
        }
    }

    @Test func pushOptionsThatCannotWorkAreRefusedBeforeAnythingIsSent() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            try await device.todos.insert(TodoItem(id: "a", text: "a"))
            _ = try await harness.takeRequests(includingExtensions: true)

            await #expect(throws: SyncError.invalidPushOptions("batchSize must be at least 1, not 0")) {
                try await device.context.push(options: PushOptions(batchSize: 0))
            }
            await #expect(throws: SyncError.self) {
                try await device.context.push(options: PushOptions(maxConcurrentRequests: 0))
            }

            #expect(try await harness.takeRequests(includingExtensions: true).isEmpty)
            #expect(try await device.context.pendingOperationCount() == 1)
        }
    }
}

extension RecordedRequest {
    /// `METHOD /path`.
    var line: String { "\(method) \(path)" }
}

/// Hands everything to a real store and counts its write transactions.
private struct TransactionCountingStore: StoreWrapper {
    let base: any LocalStore
    private let counter = Counter()

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func increment() { lock.withLock { value += 1 } }
        var current: Int { lock.withLock { value } }
    }

    var writes: Int { counter.current }

    var preferredTaskExecutor: (any TaskExecutor)? { base.preferredTaskExecutor }

    func write<Result: Sendable>(
        _ body: @Sendable (any StoreTransaction) throws -> Result
    ) async throws -> Result {
        counter.increment()
        return try await base.write(body)
    }
}
