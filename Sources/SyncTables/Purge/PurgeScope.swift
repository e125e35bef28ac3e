/// The validated arguments of a purge (or its preview): which rows go and which incremental token resets.
struct PurgeScope {
    /// The rows to remove.
    let query: StoreQuery
    /// The query id whose token resets, `nil` when none was given (or it was empty).
    let queryId: String?
    /// `true` when the query selects the whole table: then every token of the table resets.
    let wholeTable: Bool

    /// Validates the arguments before any I/O.
    init(table: String, query: StoreQuery?, queryId rawQueryId: String?) throws {
        let queryId = rawQueryId.flatMap { $0.isEmpty ? nil : $0 }
        if let queryId { try PullPlan.validate(queryId: queryId) }
        let query = query ?? StoreQuery(table: table)
        guard query.table == table else { throw SyncError.invalidQuery("the query reads '\(query.table)'") }
        self.query = query
        self.queryId = queryId
        self.wholeTable = query.filter == nil && query.limit == nil && query.offset == 0
    }
}
