extension SyncTable {
    /// Removes the table's rows (or the rows a query matches) from the local store; the server is untouched.
    ///
    /// Refuses with ``SyncError/pendingOperations(table:)`` while the table has pending operations, unless
    /// `force` is `true`: then the operations (and push errors) of the purged rows are discarded too —
    /// all of the table's when the whole table is purged. The query id's incremental token is reset, and
    /// every token of the table when the whole table is purged, so the next pull brings the rows back.
    ///
    /// ```swift
    /// try await todos.purge()
    /// try await todos.purge(todos.query().filter(Column("complete") == true), force: true)
    /// ```
    ///
    /// - Throws: ``SyncError/pendingOperations(table:)`` while the purged rows have pending operations (unless
    ///   `force`), ``SyncError/unknownColumn(_:table:nearest:)`` for a filter naming a property the table cannot have,
    ///   and ``SyncError/store(_:)`` when the store fails. Nothing is purged then.
    @discardableResult
    public func purge(
        _ query: SyncQuery<Item>? = nil,
        queryId: String? = nil,
        force: Bool = false
    ) async throws -> PurgeSummary {
        try await context.purge(
            table: name, query: query?.storeQuery, queryId: queryId, force: force, itemProperties: itemProperties)
    }
}
