import Foundation
import Logging

// The context's pull: validated before any I/O, pushing first when the table has pending operations, run as
// the context's one sync action (see ``Pull`` for how pages are fetched and committed).

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
    ///   - logger: Where each page is logged (debug), if anywhere.
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
        var pull = Pull(
            store: store, client: try requireClient(), events: eventBroadcaster, notifier: changeNotifier,
            plan: plan, queryId: queryId)
        let rules = try await TableRulesRecord.rules(of: table, in: store)
        if rules.mergesFields { pull.rebase = PullRebase(rules: rules, queue: queue) }
        let summary = try await withSyncAction {
            if options.pushesFirst, try await queue.count(tables: [table]) > 0 {
                // A failed implicit push fails the pull before any pull request is sent, unless asked to go on.
                do {
                    _ = try await makePush(tables: options.pushOtherTables ? nil : [table]).run()
                } catch SyncError.pushFailed(let failure)
                    where options.continuesAfterFailedPush && failure.status != .cancelled
                {}
            }
            return try await pull.run()
        }
        // After the pages committed: a failed download fails the pull, and the next pull (or a read) retries it.
        if rules.downloadsAttachmentsEagerly { try await downloadMissingAttachments(table: table) }
        return summary
    }

    /// When a pull of `table` and `queryId` last completed, if ever.
    func lastPullTime(table: String, queryId: String?) async throws -> Date? {
        try await PullRecords(store: store).lastPullTime(table: table, queryId: queryId)
    }
}
