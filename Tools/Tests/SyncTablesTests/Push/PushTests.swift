import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("Push against sync-server")
struct PushTests {
    /// For the tests of what happens to single requests (drops, lost answers, cancellation between
    /// operations); `BatchPushTests` has their batched counterparts.
    private static let oneRequestEach = PushOptions(batchSize: 1)

    @Test func insertIsPostedWithoutSystemPropertiesAndTheServerItemIsStoredBack() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            try await device.todos.insert(TodoItem(id: "a", text: "Buy milk"))
            _ = try await harness.takeRequests()

            let summary = try await device.context.push()

            #expect(summary.pushedOperations == 1)
            let requests = try await harness.takeRequests()
            #expect(requests.map(\.method) == ["POST"])
            #expect(requests[0].path == "/tables/TodoItem")
            #expect(requests[0].bodyKeys == ["id", "text", "complete"])
            #expect(requests[0].header("If-Match") == nil)
            #expect(requests[0].header("ZUMO-API-VERSION") == "2.0.0")
            #expect(requests[0].header("X-ZUMO-FEATURES")?.split(separator: ",").contains("OL") == true)
            let local = try #require(try await device.todos.lookup(id: "a"))
            let server = try #require(try await harness.serverItem("a"))
            #expect(local.version != nil && local.version == server["version"]?.stringValue)
            #expect(local.updatedAt != nil && local.createdAt != nil)
            #expect(try await device.context.pendingOperationCount() == 0)
        }
    }

    @Test func updateAndDeleteCarryIfMatchWithTheKnownVersion() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            try await device.todos.insert(TodoItem(id: "a", text: "one"))
            try await device.context.push()
            var item = try #require(try await device.todos.lookup(id: "a"))
            item.text = "two"
            try await device.todos.update(item)
            _ = try await harness.takeRequests()

            try await device.context.push()
            var requests = try await harness.takeRequests()
            #expect(requests.map(\.method) == ["PATCH"])
            #expect(requests[0].path == "/tables/TodoItem/a")
            #expect(requests[0].header("If-Match") == "\"\(item.version ?? "")\"")
            #expect(!requests[0].bodyKeys.contains("version") && !requests[0].bodyKeys.contains("updatedAt"))
            #expect(try await harness.serverItem("a")?["text"] == "two")

            let pushed = try #require(try await device.todos.lookup(id: "a"))
            #expect(pushed.version != item.version)
            try await device.todos.delete(pushed)
            _ = try await harness.takeRequests()
            try await device.context.push()
            requests = try await harness.takeRequests()
            #expect(requests.map(\.method) == ["DELETE"])
            #expect(requests[0].header("If-Match") == "\"\(pushed.version ?? "")\"")
            #expect(try await harness.serverItem("a")?["deleted"] == .bool(true))
        }
    }

    @Test func pushSendsTheWholeQueueInOrderWithTheExactRequestOfEachKind() async throws {
        try await SyncHarness.with { harness in
            let old = try await harness.controls.seed(
                table: "TodoItem", items: [["id": "old", "text": "pulled", "complete": false]])
            let note = try await harness.controls.seed(table: "Note", items: [["id": "n0", "body": "pulled"]])
            let device = try await harness.device()
            let notes = try await device.context.table(JSONObject.self, named: "Note")
            try await device.todos.pull()
            try await notes.pull()
            try await device.todos.insert(TodoItem(id: "t1", text: "first"))
            var edited = try #require(try await notes.lookup(id: "n0"))
            edited["body"] = "second"
            try await notes.update(edited)
            try await notes.insert(["id": "n1", "body": "third"])
            try await device.todos.delete(id: "old")
            try await device.todos.insert(TodoItem(id: "t2", text: "fifth"))
            _ = try await harness.takeRequests()

            try await device.context.push()

            let requests = try await harness.takeRequests()
            #expect(
                requests.map { "\($0.method) \($0.path)" } == [
                    "POST /tables/TodoItem", "PATCH /tables/Note/n0", "POST /tables/Note",
                    "DELETE /tables/TodoItem/old",
                    "POST /tables/TodoItem",
                ])
            #expect(requests.map(\.bodyID) == ["t1", "n0", "n1", nil, "t2"])
            #expect(
                requests.map(\.bodyKeys) == [
                    ["id", "text", "complete"], ["id", "body"], ["id", "body"], [], ["id", "text", "complete"],
                ])
            func ifMatch(_ rows: [JSONObject]) -> String { "\"\(rows[0]["version"]?.stringValue ?? "")\"" }
            #expect(requests.map { $0.header("If-Match") } == [nil, ifMatch(note), nil, ifMatch(old), nil])
            #expect(requests.allSatisfy { $0.query.isEmpty })
            #expect(try await device.context.pendingOperationCount() == 0)
        }
    }

    @Test func deleteOfAnItemTheServerNoLongerHasCountsAsSuccess() async throws {
        try await SyncHarness.with(softDelete: .none) { harness in
            let device = try await harness.device()
            try await device.todos.insert(TodoItem(id: "a", text: "x"))
            try await device.context.push()
            let other = try await harness.device()
            try await other.todos.pull()
            try await other.todos.delete(id: "a")
            try await other.context.push()

            let known = try #require(try await device.todos.lookup(id: "a")?.version)
            try await device.todos.delete(id: "a")
            _ = try await harness.takeRequests()
            try await device.context.push()  // the server answers 404

            let requests = try await harness.takeRequests()
            #expect(requests.map { "\($0.method) \($0.path)" } == ["DELETE /tables/TodoItem/a"])
            #expect(requests.first?.header("If-Match") == "\"\(known)\"")
            #expect(try await device.context.pendingOperationCount() == 0)
        }
    }

    @Test func conflictIsReportedWithTheServerItemAndServerWinsResolutionTakesIt() async throws {
        try await SyncHarness.with { harness in
            let (first, second) = try await twoDevicesSharing(TodoItem(id: "a", text: "base"), harness)
            try await edit("a", to: "from first", on: first)
            try await first.context.push()
            try await edit("a", to: "from second", on: second)
            let known = try #require(try await second.todos.lookup(id: "a")?.version)
            _ = try await harness.takeRequests()

            let failure = try await requirePushFailure { try await second.context.push() }

            let requests = try await harness.takeRequests()  // trace B
            #expect(requests.map { "\($0.method) \($0.path)" } == ["PATCH /tables/TodoItem/a"])
            #expect(requests.first?.header("If-Match") == "\"\(known)\"")
            #expect(requests.first?.bodyKeys == ["id", "text", "complete"])
            #expect(failure.status == .completedWithErrors)
            let error = try #require(failure.errors.first)
            #expect(failure.errors.count == 1)
            #expect(error.status == 412 && error.kind == .update && error.itemId == "a" && error.table == "TodoItem")
            #expect(error.serverItem?["text"] == "from first")
            #expect(error.clientItem?["text"] == "from second")
            let server = try #require(try error.serverItem(as: TodoItem.self))
            #expect(server.text == "from first" && server.version == error.serverItem?["version"]?.stringValue)
            #expect(try error.clientItem(as: TodoItem.self)?.text == "from second")
            #expect(try await second.context.pushErrors().count == 1)

            try await error.cancelAndUpdateItem(server)

            #expect(try await second.todos.lookup(id: "a")?.text == "from first")
            #expect(try await second.context.pendingOperationCount() == 0)
            #expect(try await second.context.pushErrors().isEmpty)
            _ = try await harness.takeRequests()
            try await second.context.push()
            #expect(try await harness.takeRequests().isEmpty)
        }
    }

    @Test func keepOperationWithTheServerVersionMakesTheNextPushWin() async throws {
        try await SyncHarness.with { harness in
            let (first, second) = try await twoDevicesSharing(TodoItem(id: "a", text: "base"), harness)
            try await edit("a", to: "from first", on: first)
            try await first.context.push()
            try await edit("a", to: "from second", on: second)
            let failure = try await requirePushFailure { try await second.context.push() }
            let error = try #require(failure.errors.first)
            var item = try #require(error.clientItem)
            item["version"] = error.serverItem?["version"]

            try await error.keepOperation(updatingItem: item)
            try await second.context.push()

            #expect(try await harness.serverItem("a")?["text"] == "from second")
            #expect(try await second.context.pendingOperationCount() == 0)
        }
    }

    @Test func serverWinsPolicyResolvesConflictsDuringThePush() async throws {
        try await SyncHarness.with { harness in
            let (first, second) = try await twoDevicesSharing(TodoItem(id: "a", text: "base"), harness, .serverWins)
            try await edit("a", to: "from first", on: first)
            try await first.context.push()
            try await edit("a", to: "from second", on: second)

            let summary = try await second.context.push()

            #expect(summary.resolvedConflicts == 1)
            #expect(try await second.todos.lookup(id: "a")?.text == "from first")
            #expect(try await harness.serverItem("a")?["text"] == "from first")
            #expect(try await second.context.pendingOperationCount() == 0)
        }
    }

    @Test func clientWinsPolicyRetriesAgainstTheServerVersion() async throws {
        try await SyncHarness.with { harness in
            let (first, second) = try await twoDevicesSharing(TodoItem(id: "a", text: "base"), harness, .clientWins)
            try await edit("a", to: "from first", on: first)
            try await first.context.push()
            try await edit("a", to: "from second", on: second)

            let summary = try await second.context.push()

            #expect(summary.resolvedConflicts == 1 && summary.pushedOperations == 1)
            #expect(try await harness.serverItem("a")?["text"] == "from second")
            let local = try #require(try await second.todos.lookup(id: "a"))
            #expect(local.version == (try await harness.serverItem("a"))?["version"]?.stringValue)
        }
    }

    @Test func customPolicyDecidesPerConflict() async throws {
        try await SyncHarness.with { harness in
            let (first, second) = try await twoDevicesSharing(
                TodoItem(id: "a", text: "base"), harness,
                .custom { conflict in
                    guard var merged = conflict.serverItem else { return .unresolved }
                    merged["text"] = .string("merged")
                    return .retry(updatingItem: merged)
                })
            try await edit("a", to: "from first", on: first)
            try await first.context.push()
            try await edit("a", to: "from second", on: second)

            try await second.context.push()

            #expect(try await harness.serverItem("a")?["text"] == "merged")
        }
    }

    @Test func droppedConnectionAbortsThePushKeepingTheRemainingOperations() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            for id in ["a", "b", "c"] { try await device.todos.insert(TodoItem(id: id, text: id)) }
            try await harness.dropConnection(method: "POST", path: "/tables/TodoItem", occurrence: 2)
            _ = try await harness.takeRequests()

            let failure = try await requirePushFailure { try await device.context.push(options: Self.oneRequestEach) }

            // trace E: a, then b dropped (libcurl's one resend on a fresh connection is dropped too).
            let requests = try await harness.takeRequests()
            #expect(
                requests.map { "\($0.method) \($0.path) \($0.bodyID ?? "")" } == [
                    "POST /tables/TodoItem a", "POST /tables/TodoItem b", "POST /tables/TodoItem b",
                ])
            #expect(failure.status == .abortedNetwork)
            #expect(failure.errors.isEmpty)
            let remaining = try await device.context.pendingOperations().map(\.itemId)
            #expect(remaining == ["b", "c"])
            try await device.context.push(options: Self.oneRequestEach)
            #expect(try await device.context.pendingOperationCount() == 0)
            #expect(try await harness.serverItem("c") != nil)
        }
    }

    @Test func serverErrorIsRecordedAndThePushContinuesThenConverges() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            for id in ["a", "b"] { try await device.todos.insert(TodoItem(id: id, text: id)) }
            try await harness.controls.addFault(
                FaultRule(method: "POST", path: "/tables/TodoItem", occurrence: 1, action: .respond(status: 500)))
            _ = try await harness.takeRequests()

            let failure = try await requirePushFailure { try await device.context.push() }

            let requests = try await harness.takeRequests()
            #expect(
                requests.map { "\($0.method) \($0.path) \($0.bodyID ?? "")" } == [
                    "POST /tables/TodoItem a", "POST /tables/TodoItem b",
                ])
            #expect(failure.status == .completedWithErrors)
            #expect(failure.errors.map(\.status) == [500])
            #expect(failure.errors.first?.clientItem?["id"] == "a")
            #expect(failure.errors.first?.rawBody?.contains("Injected fault") == true)
            #expect(try await harness.serverItem("b") != nil)
            try await device.context.push()
            #expect(try await device.context.pendingOperationCount() == 0)
            #expect(try await device.context.pushErrors().isEmpty)
        }
    }

    @Test func unauthorizedAbortsThePush() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            for id in ["a", "b"] { try await device.todos.insert(TodoItem(id: id, text: id)) }
            try await harness.controls.addFault(
                FaultRule(path: "/tables/TodoItem", action: .respond(status: 401, body: ["error": "expired"])))

            let failure = try await requirePushFailure { try await device.context.push(options: Self.oneRequestEach) }

            #expect(failure.status == .abortedAuthentication)
            #expect(try await device.context.pendingOperationCount() == 2)
            let requests = try await harness.takeRequests()
            #expect(requests.map { "\($0.method) \($0.path) \($0.bodyID ?? "")" } == ["POST /tables/TodoItem a"])
        }
    }

    @Test func insertWhoseResponseWasLostIsRecognizedOnTheNextPush() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            try await device.todos.insert(TodoItem(id: "a", text: "x"))
            try await harness.controls.addFault(
                FaultRule(method: "POST", path: "/tables/TodoItem", action: .lostResponse))

            let failure = try await requirePushFailure { try await device.context.push(options: Self.oneRequestEach) }
            #expect(failure.status == .abortedNetwork)
            #expect(try await harness.serverItem("a") != nil)

            // 409 with an equal item: the earlier insert worked
            try await device.context.push(options: Self.oneRequestEach)

            #expect(try await device.context.pendingOperationCount() == 0)
            #expect(try await device.todos.lookup(id: "a")?.version != nil)
        }
    }

    @Test func updateWhoseResponseWasLostIsRecognizedOnTheNextPush() async throws {
        try await SyncHarness.with { harness in
            var device = try await harness.device()
            try await device.todos.insert(TodoItem(id: "a", text: "x"))
            try await device.context.push(options: Self.oneRequestEach)
            try await edit("a", to: "y", on: device)
            // A new client: the PATCH goes out on a fresh connection, which libcurl never resends on.
            try await device.context.close()
            device = try await harness.device(path: device.path)
            try await harness.controls.addFault(
                FaultRule(method: "PATCH", path: "/tables/TodoItem/a", action: .lostResponse))
            let failure = try await requirePushFailure { try await device.context.push(options: Self.oneRequestEach) }
            #expect(failure.status == .abortedNetwork)
            _ = try await harness.takeRequests()

            // 412, but the server holds exactly our data: it was applied
            try await device.context.push(options: Self.oneRequestEach)

            #expect(try await harness.takeRequests().map(\.method) == ["PATCH"])
            #expect(try await device.context.pendingOperationCount() == 0)
            #expect(try await device.context.pushErrors().isEmpty)
            let server = try #require(try await harness.serverItem("a"))
            #expect(server["text"] == "y")
            #expect(try await device.todos.lookup(id: "a")?.version == server["version"]?.stringValue)
        }
    }

    @Test func pushErrorsSurviveReopeningTheStore() async throws {
        try await SyncHarness.with { harness in
            var device = try await harness.device()
            try await device.todos.insert(TodoItem(id: "a", text: "x"))
            try await harness.controls.addFault(
                FaultRule(method: "POST", path: "/tables/TodoItem", action: .respond(status: 400)))
            _ = try? await device.context.push()
            try await device.context.close()

            device = try await harness.device(path: device.path)

            let errors = try await device.context.pushErrors(table: "TodoItem")
            #expect(errors.map(\.status) == [400])
            try await #require(errors.first).cancelAndDiscardItem()
            #expect(try await device.todos.lookup(id: "a") == nil)
            #expect(try await device.context.pendingOperationCount() == 0)
        }
    }

    @Test func cancellingThePushingTaskStopsBetweenOperationsAndLosesNothing() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            for id in ["a", "b", "c"] { try await device.todos.insert(TodoItem(id: id, text: id)) }
            try await harness.controls.addFault(
                FaultRule(method: "POST", path: "/tables/TodoItem", occurrence: 2, action: .delay(milliseconds: 1500)))

            let events = device.context.events
            let push = Task { try await device.context.push(options: Self.oneRequestEach) }
            // Cancel once the first insert is confirmed, while the second is held by the server's delay.
            for await event in events {
                if case .operationPushed(_, "a", _) = event { break }
            }
            push.cancel()
            let result = await push.result

            guard case .failure(let error) = result, case SyncError.pushFailed(let failure) = error else {
                Issue.record("expected SyncError.pushFailed, got \(result)")
                return
            }
            #expect(failure.status == .cancelled)
            let remaining = try await device.context.pendingOperations().map(\.itemId)
            #expect(remaining.first == "b" || remaining.first == "c")
            #expect(!remaining.contains("a"))
            try await device.context.push(options: Self.oneRequestEach)
            #expect(try await device.context.pendingOperationCount() == 0)
            for id in ["a", "b", "c"] { #expect(try await harness.serverItem(id) != nil) }
        }
    }

    @Test func syncActionsInAnAlreadyCancelledTaskFailWithTypedErrorsAndTouchNothing() async throws {
        try await SyncHarness.with { harness in
            // Given a device with a queued insert and a pulled row
            _ = try await harness.controls.seed(
                table: "TodoItem", items: [["id": "s", "text": "server", "complete": false]])
            let device = try await harness.device()
            try await device.todos.pull()
            try await device.todos.insert(TodoItem(id: "a", text: "x"))
            let requestsBefore = try await harness.controls.requests().count

            // When push, pull and a forced purge run in a task that is already cancelled
            let outcomes = await Task {
                withUnsafeCurrentTask { $0?.cancel() }
                let push = await outcome { try await device.context.push() }
                let pull = await outcome { try await device.todos.pull() }
                let purge = await outcome { try await device.todos.purge(force: true) }
                return (push, pull, purge)
            }.value

            // Then each fails with its typed cancellation, no request is sent and nothing changes locally
            guard case .failure(let pushError) = outcomes.0, case SyncError.pushFailed(let failure) = pushError else {
                Issue.record("expected SyncError.pushFailed, got \(outcomes.0)")
                return
            }
            #expect(failure.status == .cancelled && failure.errors.isEmpty)
            guard case .failure(let pullError) = outcomes.1, case .failure(let purgeError) = outcomes.2 else {
                Issue.record("expected pull and purge to fail, got \(outcomes.1) and \(outcomes.2)")
                return
            }
            #expect(pullError as? SyncError == .cancelled)
            #expect(purgeError as? SyncError == .cancelled)
            #expect(try await harness.controls.requests().count == requestsBefore)
            #expect(try await device.context.pendingOperationCount() == 1)
            #expect(try await device.todos.lookup(id: "s") != nil)
        }
    }

    @Test func pushWithoutAClientThrowsATypedError() async throws {
        let context = try await SyncContext(store: MemoryStore())
        await #expect(throws: SyncError.noClient) { try await context.push() }
    }
}

/// Two devices that both hold `item` as pushed by the first and pulled by the second.
func twoDevicesSharing(
    _ item: TodoItem,
    _ harness: SyncHarness,
    _ policy: ConflictPolicy = .manual
) async throws -> (Device, Device) {
    let first = try await harness.device()
    try await first.todos.insert(item)
    try await first.context.push()
    let second = try await harness.device(conflictPolicy: policy)
    try await second.todos.pull()
    return (first, second)
}

/// Changes an item's text locally.
func edit(_ id: String, to text: String, on device: Device) async throws {
    var item = try #require(try await device.todos.lookup(id: id))
    item.text = text
    try await device.todos.update(item)
}

/// The outcome of an async throwing call, for checking several calls made in one task.
private func outcome<Value>(_ body: () async throws -> Value) async -> Result<Value, any Error> {
    do {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}
