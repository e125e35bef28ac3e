import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Exact wire traces of the client behaviours listed below, asserted through the server's request log.
///
/// Where each behaviour is shown (wire items by the exact requests the server received; items 2–4 are
/// local behaviour, shown by the local tests and by the requests their results lead to):
///
/// | # | Behaviour | Tests |
/// |---|---|---|
/// | 1 | `ZUMO-API-VERSION`, `X-ZUMO-AUTH`, `X-ZUMO-FEATURES` (`OL`, `IP`) | `WireTraceTests.everyRequestCarriesTheAPIVersionTheAuthTokenAndItsFeatureCodes` |
/// | 2 | generated ids, duplicate and invalid ids | `LocalWriteTests.insertWithAnEmptyIdGeneratesOneAndReturnsIt`, `CollapseMatrixTests.insertAfterInsertIsRejectedAndChangesNothing`, `BadInputTests.invalidIdsAreRejectedOnEveryWrite` |
/// | 3 | system properties stripped locally, server results kept, `ETag` wins | `LocalWriteTests.insertStripsServerOwnedPropertiesButKeepsVersion`, `PushTests.insertIsPostedWithoutSystemPropertiesAndTheServerItemIsStoredBack`, `SyncClientRequestTests.insertPostsTheItemWithoutSystemPropertiesAndReadsTheVersionFromTheETag` |
/// | 4 | the collapse matrix | `CollapseMatrixTests` (every cell), `WireTraceTests.collapsedOperationsReachTheServerAsOneRequestEach` |
/// | 5 | FIFO across tables, `If-Match` rules, bodies without system properties | `PushTests.pushSendsTheWholeQueueInOrderWithTheExactRequestOfEachKind`, `PushTests.updateAndDeleteCarryIfMatchWithTheKnownVersion` |
/// | 6 | success removes the operation and stores the server item; DELETE 404 = success | `PushTests.insertIsPostedWithoutSystemPropertiesAndTheServerItemIsStoredBack`, `PushTests.deleteOfAnItemTheServerNoLongerHasCountsAsSuccess` |
/// | 7 | abort on transport errors and 401, record and continue otherwise | `PushTests.droppedConnectionAbortsThePushKeepingTheRemainingOperations`, `PushTests.unauthorizedAbortsThePush`, `PushTests.serverErrorIsRecordedAndThePushContinuesThenConverges`, `PushTests.conflictIsReportedWithTheServerItemAndServerWinsResolutionTakesIt` |
/// | 8 | completion result, handler hook, resolutions guarded by the operation version | `WireTraceTests.pushHandlerWrapsEachOperationAndSeesTheCompletion`, `PushTests` conflict and policy tests, `OperationQueueTests.stateChangesOnAStaleOperationAreRefused` |
/// | 9 | validation, `__includeDeleted`, `$skip`/`$top` paging (50), empty-page end, `$top` limit, `rel=next` | `WireTraceTests.insertPushThenAVanillaPullPagesUntilAnEmptyPage`, `PullTests.fullPullPagesWithSkipAndTopUntilAnEmptyPage`, `PullTests.fullPullHonoursTheQueryFilterOrderingAndLimit`, `WireTraceTests.fullPullFollowsTheServersNextLinks`, `PullTests.invalidPullArgumentsAreRejectedBeforeAnyRequest`, `PullTests.incrementalPullRejectsOrderingAndPagingBeforeAnyRequest` |
/// | 10 | skip pending, delete `deleted: true`, never delete missing rows | `PullTests.pulledDeletionsRemoveLocalRowsAndItemsEditedDuringThePullAreSkipped`, `WireTraceTests.pullNeverDeletesLocalRowsMissingFromTheResult` |
/// | 11 | incremental pull: token per (table, query id), `ge` + skip fallback, token per page, query id rules | `PullTests.incrementalPullWithEqualTimestampsFallsBackToSkipAndBack` (a server without keysets), `KeysetPullTests`, `PullTests.secondIncrementalPullStartsFromTheStoredToken`, `PullTests.incrementalPullCombinesTheUserFilterWithTheWatermark`, `PullTests.pullFailingOnPageTwoKeepsPageOneAndItsToken`, `PullTests.invalidPullArgumentsAreRejectedBeforeAnyRequest` |
/// | 12 | purge: refused while dirty unless forced, tokens reset, never pushes | `PurgeTests` (all five) |
/// | 13 | one sync action at a time; writes to an in-flight item wait | `WireTraceTests.pushRequestedDuringAPullWaitsForThePullToEnd`, `WireTraceTests.writeToAnItemWhoseInsertIsOnTheWireWaitsAndTheNextPushCarriesTheNewVersion`, `PullTests.pulledDeletionsRemoveLocalRowsAndItemsEditedDuringThePullAreSkipped` (local writes go on during a pull) |
/// | 14 | queue, errors and tokens survive a restart | `WireTraceTests.aReopenedContextPushesTheSameOperationsInTheSameOrder`, `PushTests.pushErrorsSurviveReopeningTheStore`, `PersistenceTests`, `PushCrashTests`, `PullCrashTests` |
///
/// Whole scenarios: insert, push and a full pull, `WireTraceTests.insertPushThenAVanillaPullPagesUntilAnEmptyPage`;
/// an update conflict the server wins, `PushTests.conflictIsReportedWithTheServerItemAndServerWinsResolutionTakesIt`;
/// an incremental pull through equal timestamps, `PullTests.incrementalPullWithEqualTimestampsFallsBackToSkipAndBack`;
/// a purge, `PurgeTests.forcedPurgeRemovesRowsOperationsErrorsAndTokensThenPullStartsOver`;
/// a push cut off by the network, `PushTests.droppedConnectionAbortsThePushKeepingTheRemainingOperations`.
@Suite("Wire traces against sync-server")
struct WireTraceTests {
    @Test func everyRequestCarriesTheAPIVersionTheAuthTokenAndItsFeatureCodes() async throws {
        try await SyncHarness.with(authToken: "secret-token") { harness in
            let device = try await harness.device(headers: ["X-ZUMO-AUTH": "secret-token"])
            try await device.todos.insert(TodoItem(id: "a", text: "a"))
            try await device.todos.insert(TodoItem(id: "b", text: "b"))
            try await device.context.push(options: PushOptions(batchSize: 1))  // each with its own features
            try await edit("a", to: "a2", on: device)
            try await device.todos.delete(id: "b")
            try await device.context.push(options: PushOptions(batchSize: 1))  // each with its own features
            try await device.todos.pull()
            try await device.todos.pull(queryId: "q")

            let requests = try await harness.takeRequests()

            // The incremental pull: a first page, then (keysets advertised) the records after its last one.
            #expect(requests.map(\.method) == ["POST", "POST", "PATCH", "DELETE", "GET", "GET", "GET", "GET"])
            #expect(
                requests.map { $0.header("X-ZUMO-FEATURES") ?? "" }
                    == ["OL", "OL", "OC,OL", "OC,OL", "OL", "OL", "OL,IP", "OL,IP"])
            #expect(requests.allSatisfy { $0.header("ZUMO-API-VERSION") == "2.0.0" })
            #expect(requests.allSatisfy { $0.header("X-ZUMO-AUTH") == "secret-token" })
        }
    }

    @Test func collapsedOperationsReachTheServerAsOneRequestEach() async throws {
        try await SyncHarness.with { harness in
            let seeded = try await harness.controls.seed(
                table: "TodoItem", items: [["id": "p", "text": "pulled", "complete": false]])
            let device = try await harness.device()
            try await device.todos.pull()
            try await device.todos.insert(TodoItem(id: "a", text: "first"))
            try await edit("a", to: "second", on: device)  // insert + update = insert of the new data
            try await edit("p", to: "edited", on: device)
            try await device.todos.delete(id: "p")  // update + delete = delete in the update's place
            try await device.todos.insert(TodoItem(id: "c", text: "never sent"))
            try await device.todos.delete(id: "c")  // insert + delete = nothing
            _ = try await harness.takeRequests()

            try await device.context.push()

            let requests = try await harness.takeRequests()
            #expect(
                requests.map { "\($0.method) \($0.path)" } == ["POST /tables/TodoItem", "DELETE /tables/TodoItem/p"])
            #expect(requests.first?.body.flatMap { try? JSONObject(parsing: $0) }?["text"] == "second")
            #expect(requests.last?.header("If-Match") == "\"\(seeded[0]["version"]?.stringValue ?? "")\"")
            #expect(requests.last?.body == nil)
        }
    }

    @Test func insertPushThenAVanillaPullPagesUntilAnEmptyPage() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            try await device.todos.insert(TodoItem(id: "a", text: "x"))
            try await device.context.push()
            try await harness.controls.seed(table: "TodoItem", items: [["id": "b", "text": "y", "complete": false]])

            try await device.todos.pull()

            let requests = try await harness.takeRequests()
            #expect(
                requests.map { "\($0.method) \($0.path)" } == [
                    "POST /tables/TodoItem", "GET /tables/TodoItem", "GET /tables/TodoItem",
                ])
            #expect(requests[0].query.isEmpty && requests[0].bodyKeys == ["id", "text", "complete"])
            #expect(requests[0].header("If-Match") == nil)
            #expect(requests[1].querySet == ["$skip=0", "$top=50", "__includeDeleted=true"])
            #expect(requests[2].querySet == ["$skip=2", "$top=50", "__includeDeleted=true"])
            #expect(requests.dropFirst().allSatisfy { $0.body == nil && $0.header("If-Match") == nil })
            let server = try #require(try await harness.serverItem("b"))
            #expect(try await device.todos.lookup(id: "b")?.version == server["version"]?.stringValue)
            #expect(try await device.todos.query().fetchCount() == 2)
        }
    }

    @Test func fullPullFollowsTheServersNextLinks() async throws {
        try await SyncHarness.with(pageSize: 2) { harness in
            try await harness.controls.seed(
                table: "TodoItem", items: (1...5).map { ["id": .string("i\($0)"), "text": "t", "complete": false] })
            let device = try await harness.device()

            try await device.todos.pull(options: PullOptions(pageSize: 5))

            // The server sends at most 2 rows and a rel=next link for the rest (its $skiptoken holds the last
            // row's id, base64url of ["i2","i2"] and ["i4","i4"]); the client follows it until a page needs no
            // link, then asks on from where it is and ends on the empty page.
            let requests = try await harness.takeRequests()
            #expect(requests.allSatisfy { $0.method == "GET" && $0.path == "/tables/TodoItem" })
            #expect(
                requests.map(\.querySet) == [
                    ["$skip=0", "$top=5", "__includeDeleted=true"],
                    ["$skiptoken=WyJpMiIsImkyIl0", "$top=3", "__includeDeleted=true"],
                    ["$skiptoken=WyJpNCIsImk0Il0", "$top=1", "__includeDeleted=true"],
                    ["$skip=5", "$top=5", "__includeDeleted=true"],
                ])
            #expect(try await device.todos.query().fetchCount() == 5)
        }
    }

    @Test func pullNeverDeletesLocalRowsMissingFromTheResult() async throws {
        try await SyncHarness.with(softDelete: .none) { harness in
            let device = try await harness.device()
            try await device.todos.insert(TodoItem(id: "gone", text: "x"))
            try await device.todos.insert(TodoItem(id: "kept", text: "y"))
            try await device.context.push()
            let other = try await harness.device()
            try await other.todos.pull()
            try await other.todos.delete(id: "gone")
            try await other.context.push()  // hard delete: the server forgets the row
            _ = try await harness.takeRequests()

            let summary = try await device.todos.pull()

            let requests = try await harness.takeRequests()
            #expect(requests.map(\.querySet) == [0, 1].map { ["$skip=\($0)", "$top=50", "__includeDeleted=true"] })
            #expect(summary.received == 1 && summary.deleted == 0)
            #expect(try await device.todos.query().fetchAll().map(\.id).sorted() == ["gone", "kept"])
        }
    }

    @Test func pushHandlerWrapsEachOperationAndSeesTheCompletion() async throws {
        try await SyncHarness.with { harness in
            let log = HandlerLog()
            let device = try await harness.device(pushHandler: StampingHandler(log: log))
            try await device.todos.insert(TodoItem(id: "sent", text: "x"))
            try await device.todos.insert(TodoItem(id: "local", text: "y"))
            _ = try await harness.takeRequests()

            try await device.context.push()

            let requests = try await harness.takeRequests()
            #expect(requests.map { "\($0.method) \($0.path)" } == ["POST /tables/TodoItem"])
            #expect(requests.first?.bodyKeys == ["id", "text", "complete", "device"])
            #expect(await log.executed == ["sent", "local"])
            #expect(await log.completions == ["succeeded with 0 errors"])
            #expect(try await device.todos.lookup(id: "local")?.version == "answered-locally")
            #expect(try await device.context.pendingOperationCount() == 0)
        }
    }

    @Test func pushRequestedDuringAPullWaitsForThePullToEnd() async throws {
        try await SyncHarness.with { harness in
            try await harness.controls.seed(table: "TodoItem", items: [["id": "a", "text": "x", "complete": false]])
            let device = try await harness.device()
            let notes = try await device.context.table(JSONObject.self, named: "Note")
            try await notes.insert(["id": "n", "body": "queued"])  // another table: the pull does not push
            try await harness.controls.addFault(
                FaultRule(method: "GET", path: "/tables/TodoItem", occurrence: 1, action: .delay(milliseconds: 800)))
            _ = try await harness.takeRequests()

            let events = device.context.events
            let pull = Task { try await device.todos.pull() }
            for await event in events {
                if case .pullStarted = event { break }
            }
            let push = Task { try await device.context.push() }
            _ = try await pull.value
            _ = try await push.value

            let requests = try await harness.takeRequests()
            #expect(
                requests.map { "\($0.method) \($0.path)" } == [
                    "GET /tables/TodoItem", "GET /tables/TodoItem", "POST /tables/Note",
                ])
        }
    }

    @Test func writeToAnItemWhoseInsertIsOnTheWireWaitsAndTheNextPushCarriesTheNewVersion() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            try await device.todos.insert(TodoItem(id: "a", text: "first"))
            try await harness.controls.addFault(
                FaultRule(method: "POST", path: "/tables/TodoItem", action: .delay(milliseconds: 500)))
            _ = try await harness.takeRequests()

            let push = Task { try await device.context.push() }
            try await harness.waitForRequest("POST", "/tables/TodoItem")
            var item = try #require(try await device.todos.lookup(id: "a"))
            item.text = "second"
            try await device.todos.update(item)  // waits for the server's answer to the insert
            _ = try await push.value
            // The update is queued once the insert's answer is in: the running push may still pick it up
            // (it drains the queue), otherwise the next one does.
            try await device.context.push()

            let requests = try await harness.takeRequests()
            #expect(
                requests.map { "\($0.method) \($0.path)" } == ["POST /tables/TodoItem", "PATCH /tables/TodoItem/a"])
            // The update names the version the insert's answer carried, so the server takes it (a stale one
            // would be answered 412 and leave a push error).
            #expect(requests.last?.header("If-Match")?.isEmpty == false)
            #expect(try await device.context.pendingOperationCount() == 0)
            #expect(try await device.context.pushErrors().isEmpty)
            #expect(try await harness.serverItem("a")?["text"] == "second")
        }
    }

    @Test func aReopenedContextPushesTheSameOperationsInTheSameOrder() async throws {
        try await SyncHarness.with { harness in
            var device = try await harness.device()
            let notes = try await device.context.table(JSONObject.self, named: "Note")
            try await device.todos.insert(TodoItem(id: "a", text: "first"))
            try await notes.insert(["id": "n", "body": "second"])
            try await device.todos.insert(TodoItem(id: "b", text: "third"))
            try await edit("a", to: "first, edited", on: device)
            try await device.context.close()

            device = try await harness.device(path: device.path)
            _ = try await harness.takeRequests()
            try await device.context.push()

            let requests = try await harness.takeRequests()
            #expect(
                requests.map { "\($0.method) \($0.path) \($0.bodyID ?? "")" } == [
                    "POST /tables/TodoItem a", "POST /tables/Note n", "POST /tables/TodoItem b",
                ])
            #expect(requests.first?.body.flatMap { try? JSONObject(parsing: $0) }?["text"] == "first, edited")
        }
    }
}

/// What ``StampingHandler`` saw.
actor HandlerLog {
    var executed: [String] = []
    var completions: [String] = []

    func executing(_ itemId: String) { executed.append(itemId) }
    func completed(_ status: PushOutcome, errors: Int) { completions.append("\(status) with \(errors) errors") }
}

/// Stamps the device onto every item it sends, and answers for the server for the item `local`.
struct StampingHandler: PushHandler {
    let log: HandlerLog

    func execute(_ operation: PushOperation, send: PushOperation.Sender) async throws -> JSONObject? {
        await log.executing(operation.itemId)
        var stamped = operation
        stamped.item["device"] = "kiosk-7"
        guard operation.itemId != "local" else {
            stamped.item["version"] = "answered-locally"
            return stamped.item
        }
        return try await send(stamped)
    }

    func pushCompleted(status: PushOutcome, errors: [TableOperationError]) async {
        await log.completed(status, errors: errors.count)
    }
}

extension WireTraceTests {
    /// A delete that passed the in-flight check just before push claimed the item's insert must not cancel
    /// the insert on the wire: its transaction sees the claim, rolls back, waits, and then queues a delete.
    @Test func aDeleteLinedUpBehindTheClaimWaitsForThePushWithInjectedGate() async throws {
        try await SyncHarness.with { harness in
            let store = GatedStore(base: try SQLiteStore(path: harness.directory.newDatabasePath()))
            let context = try await SyncContext(store: store, client: SyncClient(url: harness.url))
            let todos = try await context.table(TodoItem.self)
            try await todos.insert(TodoItem(id: "a", text: "first"))
            try await harness.controls.addFault(
                FaultRule(method: "POST", path: "/tables/TodoItem", action: .delay(milliseconds: 300)))
            _ = try await harness.takeRequests()

            store.gate.arm()
            let deleted = TestFlag()
            let delete = Task {
                try await todos.delete(id: "a")
                deleted.set()
            }
            while !store.gate.hasArrival { try await Task.sleep(for: .milliseconds(2)) }
            let push = Task { try await context.push() }
            try await harness.waitForRequest("POST", "/tables/TodoItem")
            store.gate.release()  // the delete's transaction now runs while the insert is on the wire
            try await Task.sleep(for: .milliseconds(100))
            #expect(!deleted.isSet, "the delete waits while the insert is on the wire")

            _ = try await push.value
            try await delete.value
            #expect(try await harness.serverItem("a")?["text"] == "first")
            #expect(try await context.pendingOperations().map(\.kind) == [.delete])
            _ = try await harness.takeRequests()

            try await context.push()
            let requests = try await harness.takeRequests()
            #expect(requests.map { "\($0.method) \($0.path)" } == ["DELETE /tables/TodoItem/a"])
            try await context.close()
        }
    }
}
