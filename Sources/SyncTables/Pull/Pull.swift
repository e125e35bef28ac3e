import Foundation
import Logging

/// One pull of one table: pages from the server committed to the store one by one, validated before any
/// I/O. A full pull pages with `$skip`/`$top` until an empty page; an incremental one (a query id) keeps its
/// position (see ``IncrementalCursor``), committed with each page. The caller holds the context's sync
/// action and has pushed first when it should.
struct Pull: Sendable {
    /// The store the pages are committed to.
    let store: any LocalStore
    /// The server.
    let client: SyncClient
    /// Where the pull's events go.
    let events: Broadcaster<SyncEvent>
    /// Wakes the live queries of the table when a page changed rows.
    let notifier: Broadcaster<Void>
    /// What to request.
    let plan: PullPlan
    /// Makes the pull incremental (see ``PullPlan``); `nil` for a full pull.
    let queryId: String?
    /// Merges pulled records into pending updates, in a table that merges fields.
    var rebase: PullRebase?

    /// Runs the pull.
    func run() async throws -> PullSummary {
        let table = plan.table
        events.publish(.pullStarted(table: table, queryId: queryId))
        let summary: PullSummary
        if let queryId {
            summary = try await pullIncrementally(queryId: queryId)
        } else {
            summary = try await pullFully()
        }
        try await PullRecords(store: store).recordPullTime(table: table, queryId: queryId)
        events.publish(.pullFinished(table: table, queryId: queryId, received: summary.received))
        return summary
    }

    /// The plain (not incremental) pull: `$skip` grows by each page, the user's `$top` caps the total.
    private func pullFully() async throws -> PullSummary {
        var summary = PullSummary()
        let maximum = plan.maximumRecords ?? Int.max
        guard maximum > 0 else { return summary }
        try Self.stopIfCancelled()
        var page = try await Self.fetchPage(
            plan: plan, client: client, link: nil, skip: plan.startSkip, top: min(plan.pageSize, maximum))
        summary.requests += 1
        while !page.items.isEmpty {
            let records = Array(page.items.prefix(maximum - summary.received))
            let received = summary.received + records.count
            let current = PullPage(
                table: plan.table, records: records, token: nil, logger: plan.logger, rebase: rebase)
            guard received < maximum else {
                try await apply(current, to: &summary, queryId: nil)
                break
            }
            let link = page.nextLink.flatMap { client.isSameOrigin($0) ? $0 : nil }
            let (skip, top) = (plan.startSkip + received, min(plan.pageSize, maximum - received))
            page = try await apply(current, to: &summary, queryId: nil) {
                try await Self.fetchPage(plan: plan, client: client, link: link, skip: skip, top: top)
            }
        }
        return summary
    }

    /// One page of a full pull: the server's same-origin next link when it gave one, else `$skip`/`$top`.
    private static func fetchPage(plan: PullPlan, client: SyncClient, link: URL?, skip: Int, top: Int)
        async throws(SyncError) -> RemotePage
    {
        try await SyncError.mapping {
            if let link { return try await client.query(url: link, features: [.offline]) }
            return try await client.query(
                table: plan.table, query: plan.request(skip: skip, top: top), features: [.offline])
        }
    }

    private func pullIncrementally(queryId: String) async throws -> PullSummary {
        let key = SystemConfig.deltaTokenKey(table: plan.table, queryId: queryId)
        var cursor = IncrementalCursor(token: try await PullRecords(store: store).deltaToken(key: key) ?? .start)
        var summary = PullSummary()
        try Self.stopIfCancelled()
        var page = try await Self.fetch(cursor.request(plan), plan: plan, client: client)
        summary.requests += 1
        while !page.items.isEmpty {
            // A request without keysets reads the records at its watermark again (see the *Wire protocol*
            // article, section *Incremental pull*); a keyset request starts after them.
            let boundary = cursor.usesKeyset ? nil : cursor.token.updatedAt
            let step = cursor.advance(past: page)
            // The next request depends on this page alone, so the server prepares it while this page
            // commits. If the commit fails the request is cancelled; if the request fails, this page and
            // its token are committed already.
            let nextRequest = try cursor.request(plan)
            guard step.applies else {
                try Self.stopIfCancelled()
                page = try await Self.fetch(nextRequest, plan: plan, client: client)
                summary.requests += 1
                continue
            }
            let current = PullPage(
                table: plan.table, records: page.items, token: step.token.map { (key, $0) }, boundary: boundary,
                logger: plan.logger, rebase: rebase)
            page = try await apply(current, to: &summary, queryId: queryId) {
                try await Self.fetch(nextRequest, plan: plan, client: client)
            }
        }
        summary.deltaToken = cursor.token.updatedAt
        return summary
    }

    /// One incremental page request.
    private static func fetch(_ request: TableQuery, plan: PullPlan, client: SyncClient) async throws(SyncError)
        -> RemotePage
    {
        try await SyncError.mapping {
            try await client.query(table: plan.table, query: request, features: [.offline, .incrementalPull])
        }
    }

    /// Commits `page` while `fetchNext` requests the page after it, and returns that one (counted as a
    /// request). If the commit fails the request is cancelled; cancellation stops before the next page.
    private func apply(
        _ page: PullPage,
        to summary: inout PullSummary,
        queryId: String?,
        whileFetching fetchNext: @escaping @Sendable () async throws -> RemotePage
    ) async throws -> RemotePage {
        let next = try await withThrowingTaskGroup(of: RemotePage.self) { group in
            // On the shared pool from its first instruction: a child would otherwise wait for the store's
            // thread, which this task keeps busy with the commit.
            group.addTask(executorPreference: globalConcurrentExecutor) { try await fetchNext() }
            try await apply(page, to: &summary, queryId: queryId)
            try Self.stopIfCancelled()
            guard let next = try await group.next() else { throw SyncError.cancelled }
            return next
        }
        summary.requests += 1
        return next
    }

    private func apply(_ page: PullPage, to summary: inout PullSummary, queryId: String?) async throws {
        let result = try await SyncError.mapping { try await store.write { try page.apply(in: $0) } }
        summary.received += page.records.count - result.unchanged
        summary.upserted += result.upserted
        summary.deleted += result.deleted
        summary.skippedPending += result.skippedPending
        summary.skippedInvalid += result.skippedInvalid
        summary.merged += result.merged
        if result.changedRows { notifier.notify(page.table) }
        events.publish(
            .pullPageApplied(
                table: page.table, queryId: queryId, upserted: result.upserted, deleted: result.deleted,
                skipped: result.skippedPending + result.skippedInvalid))
        page.logger?.debug(
            "page pulled",
            metadata: [
                "table": "\(page.table)", "queryId": "\(queryId ?? "")", "upserted": "\(result.upserted)",
                "deleted": "\(result.deleted)", "skipped": "\(result.skippedPending + result.skippedInvalid)",
            ])
    }

    /// Ends a pull between pages with the same ``SyncError/cancelled`` a cancelled request gives.
    private static func stopIfCancelled() throws(SyncError) {
        if Task.isCancelled { throw SyncError.cancelled }
    }
}
