extension SyncTable {
    /// Pulls the table's server records into the local store.
    ///
    /// Without a query id this is a full pull; with one it is incremental: only records changed since the
    /// last one that query id stored are requested (after its `updatedAt` and id when the server offers
    /// keyset pulls, else from its `updatedAt` with `$skip`), and the position is committed with each page,
    /// so an interrupted pull resumes where it stopped. See <doc:IncrementalPull>.
    ///
    /// ```swift
    /// try await todos.pull()
    /// try await todos.pull(todos.query().filter(Column("complete") == false), queryId: "open-todos")
    /// ```
    ///
    /// If the table has pending operations, the context pushes first.
    ///
    /// - Throws: ``SyncError/pushFailed(_:)`` when the push before it fails (no pull request is sent then),
    ///   ``SyncError/unknownColumn(_:table:nearest:)`` for a filter naming a property the table cannot have, before
    ///   anything is sent or stored (for a `JSONObject` table the store has never held, no column is known yet: the
    ///   server judges the filter), ``SyncError/noClient`` for a context without a client, ``SyncError/network(_:)``,
    ///   ``SyncError/server(_:)`` or ``SyncError/remote(_:)`` when a page cannot be fetched (the pages committed before
    ///   it stay), and ``SyncError/store(_:)`` when the store fails.
    @discardableResult
    public func pull(
        _ query: SyncQuery<Item>? = nil,
        queryId: String? = nil,
        options: PullOptions = PullOptions()
    ) async throws -> PullSummary {
        var check = FilterColumnCheck(table: name, itemProperties: itemProperties)
        check.passesUnknownTable = true
        try await check.check(query?.storeQuery.filter, in: context.store)
        return try await SyncError.mapping {
            try await context.pull(table: name, query: query?.storeQuery, queryId: queryId, options: options)
        }
    }
}
