import Foundation
import SyncTablesServer
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("Sync engine: the network goes away and comes back")
struct SyncEngineNetworkTests {
    @Test func offlineSendsNothingAndReconnectSyncsAtOnceWithoutWaitingOnTheClock() async throws {
        try await SyncHarness.with { harness in
            let network = ManualNetworkMonitor(.online)
            let device = try await EngineDevice.make(harness, networkMonitor: network)
            try await device.startAndSettle()
            _ = try await harness.takeRequests()

            network.set(.offline)
            try await device.waitForState { $0 == .offline }
            try await device.todos.insert(TodoItem(id: "a", text: "written offline"))
            #expect(await device.engine.syncNow().outcome == .skipped(.offline))
            device.clock.advance(by: .seconds(3600))
            #expect(try await harness.takeTableRequests().isEmpty)

            network.set(.online)  // the clock does not move: the cycle needs no timer

            try await eventually("the queue is pushed") { try await device.context.pendingOperationCount() == 0 }
            try await eventually("both definitions are pulled") {
                let requests = try await harness.takeTableRequests()
                return requests.contains("GET /tables/Note")
            }
            #expect(try await harness.serverItem("a") != nil)
            await device.engine.stop()
        }
    }

    @Test func anEngineStartedOfflineSendsNothingUntilTheNetworkComes() async throws {
        try await SyncHarness.with { harness in
            let network = ManualNetworkMonitor(.offline)
            let device = try await EngineDevice.make(harness, networkMonitor: network)
            try await device.todos.insert(TodoItem(id: "a", text: "queued"))

            await device.engine.start()

            #expect(device.engine.state == .offline)
            #expect(try await harness.takeTableRequests().isEmpty)
            network.set(.online)
            try await eventually("the queue is pushed") { try await device.context.pendingOperationCount() == 0 }
            await device.engine.stop()
        }
    }
}
