// The context's purge and its dry run, each the context's one sync action (see ``Purge``).

extension SyncContext {
    /// Removes rows of a table from the local store; see ``SyncTable/purge(_:queryId:force:)``.
    ///
    /// - Throws: ``SyncError/pendingOperations(table:)`` while the purged rows have pending operations (unless
    ///   `force`), ``SyncError/unknownColumn(_:table:nearest:)`` for a filter naming a property the table cannot have,
    ///   ``SyncError/invalidQuery(_:)`` for a query of another table, and ``SyncError/store(_:)`` when the store fails.
    ///   Nothing is purged then.
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
        let purge = try makePurge(table: table, query: query, queryId: queryId)
        return try await withSyncAction { try await purge.run(force: force) }
    }

    /// A purge of `table` built from this context's parts, its arguments validated.
    nonisolated func makePurge(table: String, query: StoreQuery?, queryId: String?) throws -> Purge {
        Purge(
            store: store, queue: queue, events: eventBroadcaster, notifier: changeNotifier, table: table,
            scope: try PurgeScope(table: table, query: query, queryId: queryId))
    }
}
