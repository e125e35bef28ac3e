import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("Pull against sync-server")
struct PullTests {
    @Test func fullPullPagesWithSkipAndTopUntilAnEmptyPage() async throws {
        try await SyncHarness.with { harness in
            try await harness.controls.seed(
                table: "TodoItem", items: (1...5).map { ["id": .string("i\($0)"), "text": "t", "complete": false] })
            let device = try await harness.device()

            let summary = try await device.todos.pull(options: PullOptions(pageSize: 2))

            #expect(summary.received == 5 && summary.upserted == 5 && summary.requests == 4)
            let requests = try await harness.takeRequests()
            #expect(requests.allSatisfy { $0.method == "GET" && $0.path == "/tables/TodoItem" })
            #expect(
                requests.map(\.querySet) == [0, 2, 4, 5].map { ["$skip=\($0)", "$top=2", "__includeDeleted=true"] })
            #expect(requests.allSatisfy { $0.header("X-ZUMO-FEATURES") == "OL" })
            #expect(try await device.todos.query().fetchCount() == 5)
        }
    }

    @Test func fullPullHonoursTheQueryFilterOrderingAndLimit() async throws {
        try await SyncHarness.with { harness in
            try await harness.controls.seed(
                table: "TodoItem",
                items: (1...6).map {
                    ["id": .string("i\($0)"), "text": .string("t\($0)"), "complete": .bool($0 % 2 == 0)]
                })
            let device = try await harness.device()
            let query = device.todos.query().filter(Column("complete") == true).order(Column("text").descending)
                .limit(2)

            try await device.todos.pull(query)

            #expect(try await device.todos.query().fetchAll().map(\.id) == ["i4", "i6"])
            let request = try #require(try await harness.takeRequests().first)
            #expect(request.queryValue("$filter") == "(complete eq true)")
            #expect(request.queryValue("$orderby") == "text desc")
            #expect(request.queryValue("$top") == "2")
        }
    }

    /// The example of the *Wire protocol* article, section *Incremental pull*, against a server that does not
    /// advertise keyset pulls.
    @Test func incrementalPullWithEqualTimestampsFallsBackToSkipAndBack() async throws {
        try await SyncHarness.with(advertisesKeysetPull: false) { harness in
            func row(_ id: String, _ date: String) -> JSONObject {
                ["id": .string(id), "text": .string(id), "complete": false, "updatedAt": .string(date)]
            }
            try await harness.controls.seed(
                table: "TodoItem",
                items: [
                    row("one", "1999-12-03T15:44:29.000Z"), row("two", "2000-01-01T00:00:00.000Z"),
                    row("three", "2000-01-01T00:00:00.000Z"), row("four", "2000-01-01T00:00:00.000Z"),
                    row("five", "2000-01-01T00:00:00.000Z"), row("six", "2000-01-01T00:00:00.000Z"),
                    row("seven", "2000-01-02T00:00:00.000Z"),
                ])
            let device = try await harness.device()

            let summary = try await device.todos.pull(queryId: "all", options: PullOptions(pageSize: 2))

            let requests = try await harness.takeRequests()
            let filters = requests.map { $0.queryValue("$filter") ?? "" }
            let skips = requests.map { $0.queryValue("$skip") ?? "" }
            #expect(
                filters == [
                    "(updatedAt ge datetimeoffset'1970-01-01T00:00:00.000Z')",
                    "(updatedAt ge datetimeoffset'2000-01-01T00:00:00.000Z')",
                    "(updatedAt ge datetimeoffset'2000-01-01T00:00:00.000Z')",
                    "(updatedAt ge datetimeoffset'2000-01-01T00:00:00.000Z')",
                    "(updatedAt ge datetimeoffset'2000-01-02T00:00:00.000Z')",
                    "(updatedAt ge datetimeoffset'2000-01-02T00:00:00.000Z')",
                ])
            #expect(skips == ["0", "0", "2", "4", "0", "1"])
            #expect(requests.allSatisfy { $0.method == "GET" && $0.path == "/tables/TodoItem" && $0.body == nil })
            #expect(
                requests.allSatisfy {
                    Set($0.query.map(\.name)) == ["$filter", "$orderby", "$skip", "$top", "__includeDeleted"]
                        && $0.query.count == 5 && $0.queryValue("__includeDeleted") == "true"
                })
            #expect(requests.allSatisfy { $0.queryValue("$orderby") == "updatedAt" && $0.queryValue("$top") == "2" })
            #expect(requests.allSatisfy { $0.header("X-ZUMO-FEATURES") == "OL,IP" })
            #expect(summary.deltaToken == (try Timestamp(iso8601: "2000-01-02T00:00:00Z")))
            #expect(try await device.todos.query().fetchCount() == 7)
        }
    }

    @Test func secondIncrementalPullStartsFromTheStoredToken() async throws {
        try await SyncHarness.with { harness in
            try await harness.controls.seed(
                table: "TodoItem",
                items: [["id": "a", "text": "a", "complete": false, "updatedAt": "2001-02-03T04:05:06.1234567Z"]])
            let device = try await harness.device()
            try await device.todos.pull(queryId: "q")
            _ = try await harness.takeRequests()

            try await device.todos.pull(queryId: "q")

            let first = try #require(try await harness.takeRequests().first)
            #expect(first.queryValue("$filter") == keysetFilter(after: "2001-02-03T04:05:06.1234567Z", id: "a"))
            #expect(first.queryValue("$orderby") == "updatedAt,id" && first.queryValue("$skip") == nil)
        }
    }

    @Test func incrementalPullCombinesTheUserFilterWithTheWatermark() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            try await device.todos.pull(device.todos.query().filter(Column("complete") == false), queryId: "open")
            let request = try #require(try await harness.takeRequests().first)
            #expect(
                request.queryValue("$filter")
                    == "((complete eq false) and (updatedAt ge datetimeoffset'1970-01-01T00:00:00.000Z'))")
        }
    }

    @Test func pulledDeletionsRemoveLocalRowsAndItemsEditedDuringThePullAreSkipped() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            try await device.todos.insert(TodoItem(id: "gone", text: "x"))
            try await device.todos.insert(TodoItem(id: "mine", text: "local"))
            try await device.context.push()
            try await harness.controls.seed(
                table: "TodoItem",
                items: [
                    ["id": "gone", "text": "x", "complete": false, "deleted": true],
                    ["id": "mine", "text": "server edit", "complete": false],
                ])
            try await harness.controls.addFault(
                FaultRule(method: "GET", path: "/tables/TodoItem", action: .delay(milliseconds: 1500)))

            let events = device.context.events
            let pull = Task { try await device.todos.pull() }
            for await event in events {
                if case .pullStarted = event { break }
            }
            try await edit("mine", to: "local edit", on: device)  // local writes go on during a pull
            let summary = try await pull.value

            #expect(summary.deleted == 1 && summary.skippedPending == 1)
            #expect(try await device.todos.lookup(id: "gone") == nil)
            #expect(try await device.todos.lookup(id: "mine")?.text == "local edit")
            #expect(try await device.context.pendingOperationCount() == 1)
        }
    }

    @Test func failedImplicitPushSendsNoPullRequest() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            try await device.todos.insert(TodoItem(id: "a", text: "x"))
            try await harness.controls.addFault(
                FaultRule(method: "POST", path: "/tables/TodoItem", action: .respond(status: 503)))
            _ = try await harness.takeRequests()

            _ = try await requirePushFailure { try await device.todos.pull() }

            #expect(try await harness.takeRequests().map(\.method) == ["POST"])
            #expect(try await device.context.pendingOperationCount() == 1)
        }
    }

    @Test func pullDoesNotPushWhenOnlyOtherTablesAreDirty() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            let notes = try await device.context.table(JSONObject.self, named: "Note")
            try await notes.insert(["id": "n", "body": "x"])
            _ = try await harness.takeRequests()

            try await device.todos.pull()

            #expect(try await harness.takeRequests().map(\.method) == ["GET"])
            #expect(try await device.context.pendingOperationCount() == 1)
        }
    }

    @Test func pullOfADirtyTablePushesFirst() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            try await device.todos.insert(TodoItem(id: "a", text: "x"))

            try await device.todos.pull()

            let methods = try await harness.takeRequests().map(\.method)
            #expect(methods == ["POST", "GET", "GET"])
            #expect(try await device.context.pendingOperationCount() == 0)
        }
    }

    @Test func pullFailingOnPageTwoKeepsPageOneAndItsToken() async throws {
        try await SyncHarness.with { harness in
            try await harness.controls.seed(table: "TodoItem", items: oneRowPerDay(4))
            try await harness.controls.addFault(
                FaultRule(method: "GET", path: "/tables/TodoItem", occurrence: 2, action: .respond(status: 500)))
            let device = try await harness.device()

            await #expect(throws: SyncError.self) {
                try await device.todos.pull(queryId: "q", options: PullOptions(pageSize: 2))
            }

            #expect(try await device.todos.query().fetchAll().map(\.id) == ["i1", "i2"])
            _ = try await harness.takeRequests()
            try await device.todos.pull(queryId: "q", options: PullOptions(pageSize: 2))
            let first = try #require(try await harness.takeRequests().first)
            #expect(first.queryValue("$filter") == keysetFilter(after: "2001-01-02T00:00:00.000Z", id: "i2"))
            #expect(try await device.todos.query().fetchCount() == 4)
        }
    }

    @Test func cancellingThePullingTaskStopsBetweenPagesKeepingCommittedPagesAndTheirToken() async throws {
        try await SyncHarness.with { harness in
            try await harness.controls.seed(table: "TodoItem", items: oneRowPerDay(6))
            // The third page is held by the server, so the task is cancelled while it waits for it.
            try await harness.controls.addFault(
                FaultRule(method: "GET", path: "/tables/TodoItem", occurrence: 3, action: .delay(milliseconds: 1000)))
            let device = try await harness.device()
            let notes = try await device.context.table(JSONObject.self, named: "Note")
            try await notes.insert(["id": "n", "body": "unsent"])

            let events = device.context.events
            let pull = Task { try await device.todos.pull(queryId: "q", options: PullOptions(pageSize: 2)) }
            var pages = 0
            for await event in events {
                if case .pullPageApplied = event { pages += 1 }
                if pages == 2 { break }
            }
            pull.cancel()
            let result = await pull.result

            guard case .failure(let error) = result else {
                Issue.record("expected the pull to be cancelled, got \(result)")
                return
            }
            #expect(error as? SyncError == .cancelled)
            // Pages [i1, i2] and [i3, i4] are committed, with the position of i4.
            #expect(try await device.todos.query().fetchAll().map(\.id).sorted() == ["i1", "i2", "i3", "i4"])
            #expect(try await device.context.pendingOperations().map(\.itemId) == ["n"])
            _ = try await harness.takeRequests()
            let summary = try await device.todos.pull(queryId: "q", options: PullOptions(pageSize: 2))
            let first = try #require(try await harness.takeRequests().first)
            #expect(first.queryValue("$filter") == keysetFilter(after: "2001-01-04T00:00:00.000Z", id: "i4"))
            #expect(summary.deltaToken == (try Timestamp(iso8601: "2001-01-06T00:00:00Z")))
            #expect(try await device.todos.query().fetchCount() == 6)
        }
    }

    @Test(arguments: ["ordering", "limit", "offset"])
    func incrementalPullRejectsOrderingAndPagingBeforeAnyRequest(_ option: String) async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            let base = device.todos.query()
            let query =
                switch option {
                case "ordering": base.order(Column("text"))
                case "limit": base.limit(5)
                default: base.limit(Int.max, offset: 3)
                }
            await #expect(throws: SyncError.self) { try await device.todos.pull(query, queryId: "q") }
            #expect(try await harness.takeRequests().isEmpty)
        }
    }

    @Test func invalidPullArgumentsAreRejectedBeforeAnyRequest() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            await #expect(throws: SyncError.self) { try await device.todos.pull(queryId: "a|b") }
            await #expect(throws: SyncError.self) {
                try await device.todos.pull(queryId: String(repeating: "q", count: 256))
            }
            await #expect(throws: SyncError.self) { try await device.todos.pull(options: PullOptions(pageSize: 0)) }
            await #expect(throws: SyncError.self) {
                try await device.todos.pull(options: PullOptions(parameters: ["__includeDeleted": "false"]))
            }
            #expect(try await harness.takeRequests().isEmpty)
        }
    }

    @Test func malformedServerJSONIsATypedErrorAndChangesNothing() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            try await harness.controls.addFault(
                FaultRule(method: "GET", path: "/tables/TodoItem", action: .respond(status: 200, body: "not a page")))
            await #expect(throws: SyncError.self) { try await device.todos.pull(queryId: "q") }
            #expect(try await device.todos.query().fetchCount() == 0)
        }
    }
}

/// Rows `i1`, `i2`, … updated on successive days from 2001-01-01, one per day (at most 9).
private func oneRowPerDay(_ count: Int) -> [JSONObject] {
    (1...count).map {
        ["id": .string("i\($0)"), "text": "t", "complete": false, "updatedAt": .string("2001-01-0\($0)T00:00:00.000Z")]
    }
}
