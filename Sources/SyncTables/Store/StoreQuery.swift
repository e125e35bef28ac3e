/// A read, count or delete against one table of a ``LocalStore``.
public struct StoreQuery: Sendable, Hashable {
    /// The table to read.
    public var table: String
    /// The rows to keep; `nil` keeps every row.
    public var filter: FilterExpression?
    /// The ordering; rows that tie on every key come back in `id` order.
    public var ordering: [SortDescriptor]
    /// At most this many rows; `nil` for no limit.
    public var limit: Int?
    /// Rows to skip first.
    public var offset: Int

    /// Creates a query.
    public init(
        table: String,
        filter: FilterExpression? = nil,
        ordering: [SortDescriptor] = [],
        limit: Int? = nil,
        offset: Int = 0
    ) {
        self.table = table
        self.filter = filter
        self.ordering = ordering
        self.limit = limit
        self.offset = offset
    }
}
