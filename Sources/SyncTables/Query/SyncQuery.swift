/// A query over one table: a filter, an ordering and a window, run with `fetchAll`, `fetchOne`,
/// `fetchCount` or observed live with `observe()`.
///
/// Queries are values: each refinement returns a new query. The same value drives local reads and,
/// through ``storeQuery`` and ``filterExpression``, pulls and purges.
///
/// ```swift
/// let page = try await todos.query()
///     .filter(Column("complete") == false)
///     .filter(Column("text").contains("milk"))      // ANDed with the previous filter
///     .order(Column("updatedAt").descending, Column("id"))
///     .limit(20, offset: 40)
///     .fetchAll()
/// ```
public struct SyncQuery<Item: SyncItem>: Sendable {
    /// The table the query reads.
    public let table: SyncTable<Item>
    /// The query in the store's terms: table, filter, ordering, limit and offset.
    public private(set) var storeQuery: StoreQuery

    init(table: SyncTable<Item>) {
        self.table = table
        self.storeQuery = StoreQuery(table: table.name)
    }

    /// The combined filter, or `nil` when the query matches every item.
    public var filterExpression: FilterExpression? { storeQuery.filter }

    /// The query narrowed to items that also match `filter`; several calls combine with AND.
    public func filter(_ filter: QueryFilter) -> SyncQuery {
        self.filter(filter.expression)
    }

    /// The query narrowed by a raw expression, e.g. one parsed from OData `$filter` text.
    public func filter(_ expression: FilterExpression) -> SyncQuery {
        var copy = self
        copy.storeQuery.filter = storeQuery.filter.map { .and($0, expression) } ?? expression
        return copy
    }

    /// The query with this ordering, replacing any earlier one; ties are broken by `id`.
    ///
    /// ```swift
    /// query.order(Column("complete"), Column("updatedAt").descending)
    /// ```
    public func order(_ keys: any SortKeyConvertible...) -> SyncQuery {
        order(keys)
    }

    /// The query with this ordering, replacing any earlier one; ties are broken by `id`.
    public func order(_ keys: [any SortKeyConvertible]) -> SyncQuery {
        var copy = self
        copy.storeQuery.ordering = keys.map(\.sortDescriptor)
        return copy
    }

    /// The query limited to at most `limit` items after skipping `offset`.
    public func limit(_ limit: Int, offset: Int = 0) -> SyncQuery {
        var copy = self
        copy.storeQuery.limit = limit
        copy.storeQuery.offset = offset
        return copy
    }

    /// The matching items, in order.
    ///
    /// - Throws: ``SyncError/invalidQuery(_:)`` for a negative limit or offset,
    ///   ``SyncError/unknownColumn(_:table:nearest:)`` for a filter naming a property the table cannot have,
    ///   ``SyncError/decoding(type:table:id:message:)`` when a row does not decode as `Item`, and
    ///   ``SyncError/store(_:)`` when the store fails.
    public func fetchAll() async throws -> [Item] {
        let query = try await validated()
        let rows = try await SyncError.mapping { try await table.context.store.read(query) }
        if Item.self == JSONObject.self, let items = rows as? [Item] { return items }
        return try rows.map { row throws(SyncError) in try ItemCoding.item(Item.self, from: row, table: table.name) }
    }

    /// The first matching item, or `nil`.
    ///
    /// - Throws: What ``fetchAll()`` throws.
    public func fetchOne() async throws -> Item? {
        try await limit(1, offset: storeQuery.offset).fetchAll().first
    }

    /// The number of matching items (limit and offset apply).
    ///
    /// - Throws: ``SyncError/invalidQuery(_:)`` for a negative limit or offset,
    ///   ``SyncError/unknownColumn(_:table:nearest:)`` for a filter naming a property the table cannot have, and
    ///   ``SyncError/store(_:)`` when the store fails.
    public func fetchCount() async throws -> Int {
        let query = try await validated()
        return try await SyncError.mapping { try await table.context.store.count(query) }
    }

    /// The store query, checked: no negative limit or offset
    /// (``SyncError/invalidQuery(_:)``), no filter on a property the table cannot have
    /// (``SyncError/unknownColumn(_:table:nearest:)``).
    func validated() async throws(SyncError) -> StoreQuery {
        if let limit = storeQuery.limit, limit < 0 {
            throw .invalidQuery("the limit \(limit) is negative")
        }
        guard storeQuery.offset >= 0 else { throw .invalidQuery("the offset \(storeQuery.offset) is negative") }
        try await table.checkColumns(of: storeQuery.filter)
        return storeQuery
    }
}
