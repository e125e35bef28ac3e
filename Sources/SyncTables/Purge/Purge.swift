/// One purge of one table's local rows: local only, it never pushes. Tokens, operations, errors and rows go
/// in one transaction, so a crash can never leave rows deleted behind an advanced token. The caller holds the
/// context's sync action.
struct Purge: Sendable {
    let store: any LocalStore
    /// The queue whose operations of purged rows go with them (when forced).
    let queue: OperationQueue
    /// Where the purge's events go.
    let events: Broadcaster<SyncEvent>
    /// Wakes the live queries of the table.
    let notifier: Broadcaster<Void>
    /// The table.
    let table: String
    /// The rows to remove and the token to reset, validated.
    let scope: PurgeScope

    /// Purges: refuses with ``SyncError/pendingOperations(table:)`` while the table has pending operations,
    /// unless `force`.
    func run(force: Bool) async throws -> PurgeSummary {
        events.publish(.purgeStarted(table: table))
        let summary = try await SyncError.mapping {
            try await store.write { transaction in try apply(force: force, in: transaction) }
        }
        notifier.notify(table)
        events.publish(.purgeFinished(table: table, summary: summary))
        return summary
    }

    /// What a forced purge would remove, computed by the purge itself in a transaction that is rolled back.
    func preview() async throws -> PurgePreview {
        do {
            try await store.write { transaction in
                let pending = try OperationQueue.count(table: table, in: transaction)
                let summary = try apply(force: true, in: transaction)
                throw PreviewRollback(preview: PurgePreview(table: table, summary: summary, pendingOperations: pending))
            }
        } catch let rollback as PreviewRollback {
            return rollback.preview
        } catch {
            throw SyncError(converting: error)
        }
        // `write` either throws the rollback or an error; it cannot return normally.
        throw SyncError.underlying("the purge preview was not rolled back")
    }

    /// Removes what the scope selects in `transaction`; refuses while operations are pending unless `force`.
    func apply(force: Bool, in transaction: any StoreTransaction) throws -> PurgeSummary {
        let (query, queryId, wholeTable) = (scope.query, scope.queryId, scope.wholeTable)
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

/// Carries the preview out of the store transaction, rolling the transaction back on the way.
private struct PreviewRollback: Error {
    let preview: PurgePreview
}
