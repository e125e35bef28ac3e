import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("Purge")
struct PurgeTests {
    @Test func purgeIsRefusedWhileTheTableHasPendingOperationsAndDeletesNothing() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            try await device.todos.insert(TodoItem(id: "a", text: "x"))

            await #expect(throws: SyncError.pendingOperations(table: "TodoItem")) { try await device.todos.purge() }

            #expect(try await device.todos.lookup(id: "a") != nil)
            #expect(try await device.context.pendingOperationCount() == 1)
            #expect(try await harness.takeRequests().isEmpty)  // purge never talks to the server
        }
    }

    @Test func forcedPurgeRemovesRowsOperationsErrorsAndTokensThenPullStartsOver() async throws {
        try await SyncHarness.with { harness in
            try await harness.controls.seed(
                table: "TodoItem",
                items: [["id": "pulled", "text": "p", "complete": false, "updatedAt": "2001-01-01T00:00:00.000Z"]])
            let device = try await harness.device()
            try await device.todos.pull(queryId: "q")
            try await device.todos.insert(TodoItem(id: "b", text: "b"))
            try await device.todos.insert(TodoItem(id: "c", text: "c"))
            try await harness.controls.addFault(
                FaultRule(method: "POST", path: "/tables/TodoItem", occurrence: 1, action: .respond(status: 400)))
            try await harness.dropConnection(method: "POST", path: "/tables/TodoItem", occurrence: 2)
            // b fails (error stored), c is aborted
            _ = try? await device.context.push(options: PushOptions(batchSize: 1))

            let summary = try await device.todos.purge(force: true)

            #expect(summary == PurgeSummary(rows: 3, operations: 2, errors: 1, tokens: 1))
            #expect(try await device.todos.query().fetchCount() == 0)
            #expect(try await device.context.pendingOperationCount() == 0)
            #expect(try await device.context.pushErrors().isEmpty)
            _ = try await harness.takeRequests()
            try await device.todos.pull(queryId: "q")
            let first = try #require(try await harness.takeRequests().first)
            #expect(first.queryValue("$filter") == "(updatedAt ge datetimeoffset'1970-01-01T00:00:00.000Z')")
            #expect(try await device.todos.lookup(id: "pulled") != nil)
        }
    }

    @Test func forcedPurgeOfAQueryDiscardsOnlyTheOperationsOfPurgedRows() async throws {
        let context = try await SyncContext(store: MemoryStore())
        let todos = try await context.table(TodoItem.self)
        try await todos.insert(TodoItem(id: "done", text: "x", complete: true))
        try await todos.insert(TodoItem(id: "open", text: "y", complete: false))

        let summary = try await todos.purge(todos.query().filter(Column("complete") == true), force: true)

        #expect(summary.rows == 1 && summary.operations == 1)
        #expect(try await context.pendingOperations().map(\.itemId) == ["open"])
        #expect(try await todos.lookup(id: "open") != nil)
    }

    @Test func purgeOfAQueryResetsOnlyThatQueryIdsToken() async throws {
        try await SyncHarness.with { harness in
            try await harness.controls.seed(
                table: "TodoItem",
                items: [["id": "a", "text": "a", "complete": true, "updatedAt": "2001-01-01T00:00:00.000Z"]])
            let device = try await harness.device()
            try await device.todos.pull(queryId: "done")
            try await device.todos.pull(queryId: "all")

            let summary = try await device.todos.purge(
                device.todos.query().filter(Column("complete") == true), queryId: "done")

            #expect(summary.rows == 1 && summary.tokens == 1)
            _ = try await harness.takeRequests()
            try await device.todos.pull(queryId: "all")
            let first = try #require(try await harness.takeRequests().first)
            #expect(first.queryValue("$filter") == keysetFilter(after: "2001-01-01T00:00:00.000Z", id: "a"))
        }
    }

    @Test func pendingOperationsInOtherTablesDoNotBlockAPurge() async throws {
        let context = try await SyncContext(store: MemoryStore())
        let todos = try await context.table(TodoItem.self)
        let notes = try await context.table(JSONObject.self, named: "Note")
        try await notes.insert(["id": "n"])

        let summary = try await todos.purge()

        #expect(summary == PurgeSummary())
        #expect(try await context.pendingOperationCount() == 1)
    }
}

extension PurgeSummary {
    init(rows: Int, operations: Int, errors: Int, tokens: Int) {
        self.init()
        self.rows = rows
        self.operations = operations
        self.errors = errors
        self.tokens = tokens
    }
}
