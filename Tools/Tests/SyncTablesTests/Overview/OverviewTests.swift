import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("Overview, stale tables and purge previews")
struct OverviewTests {
    @Test func statusCountsRowsPendingOperationsAndErrorsPerTableWithTokensAndPullTimes() async throws {
        try await SyncHarness.with { harness in
            try await harness.controls.seed(
                table: "TodoItem",
                items: [["id": "s", "text": "s", "complete": false, "updatedAt": "2001-01-01T00:00:00.000Z"]])
            let device = try await harness.device()
            let before = Date()
            try await device.todos.pull(queryId: "q")
            try await device.todos.insert(TodoItem(id: "b", text: "b"))
            try await harness.controls.addFault(
                FaultRule(method: "POST", path: "/tables/TodoItem", occurrence: 1, action: .respond(status: 400)))
            _ = try? await device.context.push()

            let status = try await device.context.overview()

            #expect(status.schemaVersion == SystemSchema.currentVersion)
            #expect(status.pendingOperations == 1 && status.pushErrors == 1)
            let table = try #require(status.tables.first { $0.name == "TodoItem" })
            #expect(table.rows == 2 && table.pendingOperations == 1 && table.pushErrors == 1)
            #expect(table.pulls.count == 1)
            let pull = try #require(table.pulls.first)
            #expect(pull.queryId == "q")
            #expect(pull.deltaToken?.iso8601 == "2001-01-01T00:00:00.000Z")
            let lastPull = try #require(pull.lastPull)
            #expect(lastPull >= Timestamp(date: before.addingTimeInterval(-1)) && lastPull.date <= Date())
            #expect(table.lastPull == lastPull)
            #expect(try await device.context.pullStates(table: "todoitem") == table.pulls)
        }
    }

    @Test func staleTablesAreThoseWhoseMostRecentPullIsOlderThanTheDateNeverPulledTablesExcluded() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            let other = try await device.context.table(JSONObject.self, named: "Other")
            _ = try await device.context.table(JSONObject.self, named: "NeverPulled")
            try await device.todos.pull()
            try await other.pull(queryId: "q")

            let cutoffBetween = Date()
            try await Task.sleep(for: .milliseconds(20))
            try await other.pull(queryId: "q2")

            let stale = try await device.context.staleTables(pulledBefore: cutoffBetween)
            let none = try await device.context.staleTables(pulledBefore: Date.distantPast)
            let all = try await device.context.staleTables(pulledBefore: Date().addingTimeInterval(1))

            #expect(stale.map(\.name) == ["TodoItem"])
            #expect(none.isEmpty)
            #expect(all.map(\.name) == ["Other", "TodoItem"])
        }
    }

    @Test func purgePreviewReportsTheForcedPurgeCountsAndChangesNothing() async throws {
        try await SyncHarness.with { harness in
            try await harness.controls.seed(
                table: "TodoItem",
                items: [["id": "pulled", "text": "p", "complete": true, "updatedAt": "2001-01-01T00:00:00.000Z"]])
            let device = try await harness.device()
            try await device.todos.pull(queryId: "q")
            try await device.todos.insert(TodoItem(id: "b", text: "b"))
            let statusBefore = try await device.context.overview()

            let whole = try await device.todos.purgePreview()
            let done = try await device.todos.purgePreview(
                device.todos.query().filter(Column("complete") == true), queryId: "q")

            #expect(whole.summary == PurgeSummary(rows: 2, operations: 1, errors: 0, tokens: 1))
            #expect(whole.pendingOperations == 1 && whole.wouldBeRefused)
            #expect(done.summary == PurgeSummary(rows: 1, operations: 0, errors: 0, tokens: 1))
            #expect(try await device.context.overview() == statusBefore)
            #expect(try await device.todos.purge(force: true) == whole.summary)
        }
    }
}

@Suite("Purge and pull times")
struct PurgePullTimeTests {
    @Test func wholeTablePurgeForgetsTheTablesPullTimesSoItIsNoLongerStale() async throws {
        try await SyncHarness.with { harness in
            let device = try await harness.device()
            let other = try await device.context.table(JSONObject.self, named: "Other")
            try await device.todos.pull(queryId: "q")
            try await other.pull()
            let later = Date().addingTimeInterval(1)

            try await device.todos.purge()

            #expect(try await device.context.pullStates(table: "TodoItem").isEmpty)
            #expect(try await device.context.staleTables(pulledBefore: later).map(\.name) == ["Other"])
        }
    }
}
