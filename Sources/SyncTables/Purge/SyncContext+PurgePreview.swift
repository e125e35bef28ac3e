// A dry run performs the real forced purge inside a store transaction and rolls it back, so the counts
// are exactly what `purge(…, force: true)` would remove, computed by the same code (``Purge/preview()``).

extension SyncContext {
    /// What ``purge(table:query:queryId:force:)`` would remove, without removing anything.
    ///
    /// The counts are those of a forced purge; ``PurgePreview/wouldBeRefused`` says whether an unforced one
    /// would refuse instead.
    ///
    /// ```swift
    /// let preview = try await context.purgePreview(table: "TodoItem")
    /// ```
    ///
    /// - Throws: ``SyncError/unknownColumn(_:table:nearest:)`` for a filter naming a property the table cannot have,
    ///   ``SyncError/invalidQuery(_:)`` for a query of another table, and ``SyncError/store(_:)`` when the store fails.
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
        let purge = try makePurge(table: table, query: query, queryId: queryId)
        return try await withSyncAction { try await purge.preview() }
    }
}

extension SyncTable {
    /// What ``purge(_:queryId:force:)`` would remove, without removing anything.
    ///
    /// - Throws: ``SyncError/unknownColumn(_:table:nearest:)`` for a filter naming a property the table cannot have,
    ///   and ``SyncError/store(_:)`` when the store fails.
    public func purgePreview(_ query: SyncQuery<Item>? = nil, queryId: String? = nil) async throws -> PurgePreview {
        try await context.purgePreview(
            table: name, query: query?.storeQuery, queryId: queryId, itemProperties: itemProperties)
    }
}
