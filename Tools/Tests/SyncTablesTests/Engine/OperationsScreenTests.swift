import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// What an app's operations screen shows: each operation's attempts and next retry, dead-lettering as an
/// event, and the queue's counts without a running engine.
@Suite("Operations screen: retries, dead letters and counts")
struct OperationsScreenTests {
    @Test func eachPendingOperationShowsItsAttemptsFailuresAndNextRetryTime() async throws {
        try await SyncHarness.with { harness in
            let device = try await EngineDevice.make(harness)  // base 10 s, jitter unit 0.5: 5 s
            try await harness.controls.addFault(
                FaultRule(method: "POST", path: "/tables/TodoItem", occurrence: nil, action: .respond(status: 503)))
            try await device.todos.insert(TodoItem(id: "a", text: "one"))
            try await device.todos.insert(TodoItem(id: "b", text: "two"))
            let fresh = try await device.context.pendingOperationStatuses()
            #expect(fresh.map(\.failures) == [0, 0] && fresh.allSatisfy { $0.nextAttemptAt == nil })

            await device.engine.syncNow()

            let statuses = try await device.context.pendingOperationStatuses(table: "TodoItem")
            #expect(statuses.map(\.operation.itemId) == ["a", "b"])
            for status in statuses {
                #expect(status.operation.attempts == 1)
                #expect(status.failures == 1)
                #expect(status.recentAttempts.map(\.status) == [503])
                let next = try #require(status.nextAttemptAt)
                #expect(abs(next.timeIntervalSince(device.clock.now().addingTimeInterval(5))) < 0.001)
            }
        }
    }

    @Test func deadLetteringIsAnEventAndTheCountsFollowWithoutAStartedEngine() async throws {
        try await SyncHarness.with { harness in
            let device = try await EngineDevice.make(harness)
            let counts = device.context.queueCountUpdates()
            let events = device.context.events
            var countsSeen = counts.makeAsyncIterator()
            #expect(await countsSeen.next() == QueueCounts(pending: 0, dead: 0))

            try await device.todos.insert(TodoItem(id: "a", text: "one"))
            #expect(await countsSeen.next() == QueueCounts(pending: 1, dead: 0))
            #expect(try await device.context.queueCounts() == QueueCounts(pending: 1, dead: 0))

            // A 400 is permanent: the engine's push dead-letters the insert and says so.
            try await harness.controls.addFault(
                FaultRule(method: "POST", path: "/tables/TodoItem", action: .respond(status: 400)))
            await device.engine.syncNow()
            #expect(await countsSeen.next() == QueueCounts(pending: 0, dead: 1))
            let deadLettered = await firstEvent(in: events) {
                if case .operationDeadLettered(let operation) = $0 { return operation }
                return nil
            }
            #expect(deadLettered?.itemId == "a")
            #expect(deadLettered?.state == .dead)

            try await device.context.retryDeadOperations()
            #expect(await countsSeen.next() == QueueCounts(pending: 1, dead: 0))
            try await device.context.push()
            #expect(await countsSeen.next() == QueueCounts(pending: 0, dead: 0))
            #expect(try await harness.serverItem("a") != nil)
            try await device.context.close()
        }
    }

    /// The first event `match` maps to a value, waiting at most 20 s.
    private func firstEvent<Value: Sendable>(
        in events: AsyncStream<SyncEvent>, _ match: @escaping @Sendable (SyncEvent) -> Value?
    ) async -> Value? {
        await withTaskGroup(of: Value?.self) { group in
            group.addTask {
                for await event in events {
                    if let value = match(event) { return value }
                }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(20))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
