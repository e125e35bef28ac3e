// Purge: local only, never pushes; tokens, operations, errors and rows go in
// one transaction, so a crash can never leave rows deleted behind an advanced token.

extension SyncContext {
    /// Removes rows of a table from the local store; see ``SyncTable/purge(_:queryId:force:)``.
    ///
    /// A filter naming a property that no row of the table ever had throws
    /// ``SyncError/unknownColumn(_:table:nearest:)`` and purges nothing.
    @discardableResult
    public func purge(
        table: String,
        query: StoreQuery? = nil,
        queryId: String? = nil,
        force: Bool = false
    ) async throws -> PurgeSummary {
        try await purge(table: table, query: query, queryId: queryId, force: force, itemProperties: [])
    }

    /// ``purge(table:query:queryId:force:)`` for a table whose item type declares `itemProperties`, which
    /// its filter may name too.
    func purge(
        table: String, query: StoreQuery?, queryId: String?, force: Bool, itemProperties: Set<String>?
    ) async throws -> PurgeSummary {
        try await FilterColumnCheck(table: table, itemProperties: itemProperties).check(query?.filter, in: store)
        let scope = try PurgeScope(table: table, query: query, queryId: queryId)
        let queue = self.queue
        let summary = try await withSyncAction {
            eventBroadcaster.publish(.purgeStarted(table: table))
            return try await SyncError.mapping {
                try await store.write { transaction in
                    try Self.purge(
                        table: table, query: scope.query, queryId: scope.queryId, wholeTable: scope.wholeTable,
                        force: force, queue: queue, in: transaction)
                }
            }
        }
        changeNotifier.notify(table)
        eventBroadcaster.publish(.purgeFinished(table: table, summary: summary))
        return summary
    }

    static func purge(
        table: String,
        query: StoreQuery,
        queryId: String?,
        wholeTable: Bool,
        force: Bool,
        queue: OperationQueue,
        in transaction: any StoreTransaction
    ) throws -> PurgeSummary {
        var summary = PurgeSummary()
        let pendingOperations = try OperationQueue.count(table: table, in: transaction)
        guard force || pendingOperations == 0 else {
            throw SyncError.pendingOperations(table: table)
        }

        if wholeTable {
            summary.tokens += try SystemConfig.removeValues(
                withPrefix: SystemConfig.PullKeyKind.deltaToken.prefix(table: table), in: transaction)
            // The emptied table holds nothing from those pulls, so it is no longer "stale" (see staleTables).
            try SystemConfig.removeValues(
                withPrefix: SystemConfig.PullKeyKind.lastPull.prefix(table: table), in: transaction)
        } else if let queryId {
            let key = SystemConfig.deltaTokenKey(table: table, queryId: queryId)
            if try SystemConfig.value(for: key, in: transaction) != nil {
                try SystemConfig.removeValue(for: key, in: transaction)
                summary.tokens += 1
            }
        }

        let errorsBefore = try OperationErrorRecord.records(table: table, in: transaction).count
        if wholeTable {
            summary.operations = try queue.removeOperations(table: table, in: transaction).count
            summary.rows = try transaction.delete(StoreQuery(table: table))
        } else {
            let purgedIds = try transaction.read(query).compactMap { $0["id"]?.stringValue }
            if !purgedIds.isEmpty {
                summary.operations = try queue.removeOperations(
                    table: table, itemIds: Set(purgedIds), in: transaction
                ).count
            }
            summary.rows = try transaction.delete(table: table, ids: purgedIds)
        }
        summary.errors = errorsBefore - (try OperationErrorRecord.records(table: table, in: transaction).count)
        return summary
    }
}
