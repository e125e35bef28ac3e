import Foundation
import Logging

// Pull: validate before any I/O, push first when the table is dirty, page with $skip/$top
// until an empty page, and for a query id keep the incremental position (see IncrementalCursor),
// committed with each page.

extension SyncContext {
    /// Pulls server records of one table into the local store.
    ///
    /// - Parameters:
    ///   - table: The table.
    ///   - query: Which records (filter; for a full pull also ordering, limit as the maximum to pull, offset).
    ///   - queryId: Makes the pull incremental: the context remembers, per table and query id, the
    ///     newest `updatedAt` it has seen and asks only for newer records next time. At most 255
    ///     characters, no `|`. Use one id per distinct filter.
    ///   - options: Page size, implicit push scope, extra parameters.
    func pull(
        table: String,
        query: StoreQuery?,
        queryId rawQueryId: String?,
        options: PullOptions,
        logger: Logger? = nil
    ) async throws -> PullSummary {
        let queryId = rawQueryId.flatMap { $0.isEmpty ? nil : $0 }
        var plan = try PullPlan(table: table, query: query, queryId: queryId, options: options)
        plan.logger = logger
        let client = try requireClient()
        return try await withSyncAction {
            if options.pushesFirst, try await queue.count(tables: [table]) > 0 {
                // A failed implicit push fails the pull before any pull request is sent, unless asked to go on.
                do {
                    _ = try await pushQueue(tables: options.pushOtherTables ? nil : [table])
                } catch SyncError.pushFailed(let failure)
                    where options.continuesAfterFailedPush && failure.status != .cancelled
                {}
            }
            eventBroadcaster.publish(.pullStarted(table: table, queryId: queryId))
            let summary: PullSummary
            if let queryId {
                summary = try await pullIncrementally(plan, queryId: queryId, client: client)
            } else {
                summary = try await pullFully(plan, client: client)
            }
            try await recordPullTime(table: table, queryId: queryId)
            eventBroadcaster.publish(.pullFinished(table: table, queryId: queryId, received: summary.received))
            return summary
        }
    }

    /// The plain (not incremental) pull: `$skip` grows by each page, the user's `$top` caps the total.
    private func pullFully(_ plan: PullPlan, client: SyncClient) async throws -> PullSummary {
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
            let current = PullPage(table: plan.table, records: records, token: nil, logger: plan.logger)
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

    private func pullIncrementally(_ plan: PullPlan, queryId: String, client: SyncClient) async throws -> PullSummary {
        let key = SystemConfig.deltaTokenKey(table: plan.table, queryId: queryId)
        var cursor = IncrementalCursor(token: try await deltaToken(key: key) ?? .start)
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
                logger: plan.logger)
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
        if result.changedRows { changeNotifier.notify(page.table) }
        eventBroadcaster.publish(
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

    /// The stored incremental token of a table and query id, `nil` before the first pull.
    func deltaToken(key: String) async throws -> DeltaToken? {
        try await storedValue(key: key, expecting: "a date or a date and an item id", DeltaToken.init(storedValue:))
    }

    /// When a pull of `table` and `queryId` last completed, if ever.
    func lastPullTime(table: String, queryId: String?) async throws -> Date? {
        let key = SystemConfig.lastPullKey(table: table, queryId: queryId ?? "")
        return try await storedValue(key: key, expecting: "a date", Timestamp.init(parsing:))?.date
    }

    /// A `__config` value read with `parse`, `nil` when unset; a value `parse` refuses is a damaged system table.
    private func storedValue<Value>(key: String, expecting description: String, _ parse: (String) -> Value?)
        async throws -> Value?
    {
        let text = try await SyncError.mapping {
            try await store.write { try SystemConfig.value(for: key, in: $0) }
        }
        guard let text else { return nil }
        guard let value = parse(text) else {
            throw SyncError.corruptSystemTable(table: SystemTables.config, message: "'\(key)' is not \(description)")
        }
        return value
    }

    private func recordPullTime(table: String, queryId: String?) async throws {
        let key = SystemConfig.lastPullKey(table: table, queryId: queryId ?? "")
        let now = Timestamp(date: .now).iso8601
        try await SyncError.mapping { try await store.write { try SystemConfig.setValue(now, for: key, in: $0) } }
    }
}
