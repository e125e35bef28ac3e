import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Events and status values read as plain sentences when printed, not as Swift dumps.
@Suite("Readable descriptions") struct DescriptionTests {
    @Test func eventsDescribeThemselvesInOneReadableLine() throws {
        let page = SyncEvent.pullPageApplied(table: "TodoItem", queryId: "open", upserted: 3, deleted: 1, skipped: 0)
        let failed = SyncEvent.operationFailed(table: "TodoItem", id: "a", kind: .update, status: 412)
        let finished = SyncEvent.pushFinished(status: .abortedNetwork, pushed: 2, failed: 0)

        #expect("\(page)" == "pulled a page of TodoItem (query id open): 3 upserted, 1 deleted, 0 skipped")
        #expect("\(failed)" == "the update of TodoItem/a failed (HTTP 412)")
        #expect("\(finished)" == "push finished (aborted: network): 2 pushed, 0 failed")
        #expect(
            "\(SyncEvent.pushFinished(status: .completedWithErrors, pushed: 2, failed: 1))"
                == "push finished (completed with errors): 2 pushed, 1 failed")
        #expect(
            "\(SyncEvent.pushFinished(status: .succeeded, pushed: 3, failed: 0))"
                == "push finished (succeeded): 3 pushed, 0 failed")
        #expect("\(SyncEvent.pullStarted(table: "TodoItem", queryId: nil))" == "pull of TodoItem started (full pull)")
        for event in [page, failed, finished] {
            #expect(!"\(event)".contains("SyncTables."), "\(event)")
        }
    }

    @Test func aPushFailureSaysWhetherItTriedEverythingOrStoppedEndingWithOnePeriod() {
        let stopped = PushFailure(status: .abortedNetwork, errors: [], reason: "connection refused.")
        let completed = PushFailure(status: .completedWithErrors, errors: [])

        #expect("\(stopped)" == "The push stopped (aborted: network) with 0 failed operations: connection refused.")
        #expect("\(completed)" == "The push tried every operation; 0 failed operations.")
        #expect("\(SyncError.pushFailed(stopped))" == "\(stopped)")
    }

    @Test func statusTableStatusAndPullStateDescribeThemselvesWithoutTypeNames() throws {
        let token = try Timestamp(iso8601: "2026-11-26T07:00:00.000Z")
        let pull = PullState(table: "TodoItem", queryId: "open", deltaToken: token, lastPull: token)
        let table = TableOverview(name: "TodoItem", rows: 5, pendingOperations: 2, pushErrors: 0, pulls: [pull])
        let status = StoreOverview(schemaVersion: 3, tables: [table], pendingOperations: 2, pushErrors: 0)

        #expect(
            "\(pull)"
                == "TodoItem, query id open: token 2026-11-26T07:00:00.000Z, last pull 2026-11-26T07:00:00.000Z")
        #expect(
            "\(PullState(table: "TodoItem", queryId: nil))" == "TodoItem, full pull: last pull never")
        #expect("\(table)" == "TodoItem (5 row(s), 2 pending, 0 error(s), last pull 2026-11-26T07:00:00.000Z)")
        #expect("\(status)".hasPrefix("2 pending operation(s), 0 push error(s), tables: TodoItem (5 row(s)"))
        #expect(!"\(status)".contains("SyncTables."))
    }
}
