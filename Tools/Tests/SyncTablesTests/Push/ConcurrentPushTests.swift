import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Push with several requests on the wire at once, against a real `sync-server`: each item's operations
/// keep their order, and errors and conflicts are handled exactly as in a sequential push.
@Suite("Concurrent push")
struct ConcurrentPushTests {
    private static let eightAtOnce = PushOptions(batchSize: 1, maxConcurrentRequests: 8)

    @Test func withEightRequestsAtOnceEachItemsOperationsReachTheServerInQueueOrder() async throws {
        try await SyncHarness.with { harness in
            // Given 2,000 queued inserts, and items written again and again while the push runs
            let device = try await harness.device()
            let ids = (0..<2_000).map { "i\($0)" }
            _ = try await device.todos.insert(contentsOf: ids.map { TodoItem(id: $0, text: "v0") })
            let hot = stride(from: 0, to: 2_000, by: 100).map { "i\($0)" }
            _ = try await harness.takeRequests()

            let push = Task { try await device.context.push(options: Self.eightAtOnce) }
            for round in 1...5 {
                for id in hot { try await edit(id, to: "v\(round)", on: device) }
            }
            _ = try await push.value
            try await device.context.push(options: Self.eightAtOnce)  // what was written after its turn

            // Then every item holds its last write, and the server saw each item's writes in order
            #expect(try await device.context.pendingOperationCount() == 0)
            let requests = try await harness.takeRequests()
            var texts: [String: [Int]] = [:]
            for request in requests where request.path.hasPrefix("/tables/TodoItem") {
                let id = request.bodyID ?? String(request.path.split(separator: "/").last ?? "")
                guard let body = request.body, let text = try JSONObject(parsing: body)["text"]?.stringValue,
                    let version = Int(text.dropFirst())
                else { continue }
                texts[id, default: []].append(version)
            }
            #expect(Set(texts.keys) == Set(ids))
            #expect(requests.filter { $0.method == "POST" }.count == 2_000)
            for id in hot {
                let sent = texts[id] ?? []
                // Writes that found the operation still queued collapsed into it; the others followed it.
                #expect(sent.last == 5 && sent == sent.sorted() && Set(sent).count == sent.count, "\(id): \(sent)")
                #expect(try await harness.serverItem(id)?["text"] == "v5", "\(id)")
            }
        }
    }

    @Test func aConflictAmongConcurrentRequestsIsRecordedAndTheOthersAreApplied() async throws {
        try await SyncHarness.with { harness in
            let (first, second) = try await twoDevicesSharing(TodoItem(id: "c", text: "base"), harness)
            try await edit("c", to: "from first", on: first)
            try await first.context.push()
            _ = try await second.todos.insert(contentsOf: (0..<40).map { TodoItem(id: "a\($0)", text: "a") })
            try await edit("c", to: "from second", on: second)
            _ = try await second.todos.insert(contentsOf: (0..<40).map { TodoItem(id: "b\($0)", text: "b") })

            let failure = try await requirePushFailure {
                try await second.context.push(options: Self.eightAtOnce)
            }

            #expect(failure.status == .completedWithErrors)
            #expect(failure.errors.map(\.status) == [412])
            #expect(failure.errors.first?.serverItem?["text"] == "from first")
            #expect(failure.summary.pushedOperations == 80)
            #expect(try await second.context.pendingOperations().map(\.itemId) == ["c"])
            for id in ["a0", "a39", "b0", "b39"] { #expect(try await harness.serverItem(id) != nil) }
        }
    }

    @Test func aConflictAmongConcurrentRequestsResolvedClientWinsIsSentAgainOnce() async throws {
        try await SyncHarness.with { harness in
            let (first, second) = try await twoDevicesSharing(TodoItem(id: "c", text: "base"), harness, .clientWins)
            try await edit("c", to: "from first", on: first)
            try await first.context.push()
            _ = try await second.todos.insert(contentsOf: (0..<40).map { TodoItem(id: "a\($0)", text: "a") })
            try await edit("c", to: "from second", on: second)
            _ = try await second.todos.insert(contentsOf: (0..<40).map { TodoItem(id: "b\($0)", text: "b") })
            _ = try await harness.takeRequests()

            let summary = try await second.context.push(options: Self.eightAtOnce)

            #expect(summary.resolvedConflicts == 1 && summary.pushedOperations == 81)
            let requests = try await harness.takeRequests()
            #expect(requests.filter { $0.path == "/tables/TodoItem/c" }.count == 2)
            #expect(requests.filter { $0.method == "POST" }.count == 80)
            #expect(try await harness.serverItem("c")?["text"] == "from second")
            #expect(try await second.context.pendingOperationCount() == 0)
        }
    }

    @Test func aNetworkFailureStopsAConcurrentPushAndTheRequestsOnTheWireStillCommit() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            _ = try await device.todos.insert(contentsOf: (0..<60).map { TodoItem(id: "n\($0)", text: "n") })
            // From the 20th insert on, every request is dropped (libcurl's resends of them included).
            for occurrence in 20...60 {
                try await harness.controls.addFault(
                    FaultRule(method: "POST", path: "/tables/TodoItem", occurrence: occurrence, action: .dropConnection)
                )
            }

            let failure = try await requirePushFailure {
                try await device.context.push(options: Self.eightAtOnce)
            }

            #expect(failure.status == .abortedNetwork)
            // Every operation that left the queue is on the server; the rest follow on the next push.
            let remaining = Set(try await device.context.pendingOperations().map(\.itemId))
            #expect(!remaining.isEmpty)
            for index in 0..<60 where !remaining.contains("n\(index)") {
                #expect(try await harness.serverItem("n\(index)") != nil, "n\(index)")
            }
            try await harness.controls.clearFaults()
            try await device.context.push(options: Self.eightAtOnce)
            #expect(try await device.context.pendingOperationCount() == 0)
            #expect(try await device.context.pushErrors().isEmpty)
        }
    }
}
