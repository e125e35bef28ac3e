// A dry run performs the real forced purge inside a store transaction and rolls it back, so the counts
// are exactly what `purge(…, force: true)` would remove, computed by the same code.

extension SyncContext {
    /// What ``purge(table:query:queryId:force:)`` would remove, without removing anything.
    ///
    /// The counts are those of a forced purge; ``PurgePreview/wouldBeRefused`` says whether an unforced one
    /// would refuse instead.
    ///
    /// ```swift
    /// let preview = try await context.purgePreview(table: "TodoItem")
    /// ```
    public func purgePreview(
        table: String,
        query: StoreQuery? = nil,
        queryId: String? = nil
    ) async throws -> PurgePreview {
        try await purgePreview(table: table, query: query, queryId: queryId, itemProperties: [])
    }

    /// ``purgePreview(table:query:queryId:)`` for a table whose item type declares `itemProperties`.
    func purgePreview(
        table: String, query: StoreQuery?, queryId: String?, itemProperties: Set<String>?
    ) async throws -> PurgePreview {
        try await FilterColumnCheck(table: table, itemProperties: itemProperties).check(query?.filter, in: store)
        let scope = try PurgeScope(table: table, query: query, queryId: queryId)
        let queue = self.queue
        do {
            try await withSyncAction {
                try await store.write { transaction in
                    let pending = try OperationQueue.count(table: table, in: transaction)
                    let summary = try Self.purge(
                        table: table, query: scope.query, queryId: scope.queryId, wholeTable: scope.wholeTable,
                        force: true, queue: queue, in: transaction)
                    throw PreviewRollback(
                        preview: PurgePreview(table: table, summary: summary, pendingOperations: pending))
                }
            }
        } catch let rollback as PreviewRollback {
            return rollback.preview
        } catch {
            throw SyncError(converting: error)
        }
        // `write` either throws the rollback or an error; it cannot return normally.
        throw SyncError.underlying("the purge preview was not rolled back")
    }
}

extension SyncTable {
    /// What ``purge(_:queryId:force:)`` would remove, without removing anything.
    public func purgePreview(_ query: SyncQuery<Item>? = nil, queryId: String? = nil) async throws -> PurgePreview {
        try await context.purgePreview(
            table: name, query: query?.storeQuery, queryId: queryId, itemProperties: itemProperties)
    }
}

/// Carries the preview out of the store transaction, rolling the transaction back on the way.
private struct PreviewRollback: Error {
    let preview: PurgePreview
}
