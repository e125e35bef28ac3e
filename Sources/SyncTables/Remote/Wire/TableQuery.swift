@_spi(SyncTablesTools) import SyncTablesCore

/// The OData query options of a table read, written as a query string.
///
/// ```swift
/// var query = TableQuery()
/// query.filter = "(complete eq false)"
/// query.top = 50
/// query.queryString  // "$filter=(complete%20eq%20false)&$top=50"
/// ```
@_spi(SyncTablesTools) public struct TableQuery: Sendable, Hashable {
    /// The `$filter` expression as OData text (not yet percent-encoded).
    @_spi(SyncTablesTools) public var filter: String?
    /// The `$orderby` terms, e.g. `["updatedAt desc", "id"]`.
    @_spi(SyncTablesTools) public var orderBy: [String] = []
    /// `$skip`.
    @_spi(SyncTablesTools) public var skip: Int?
    /// `$top`.
    @_spi(SyncTablesTools) public var top: Int?
    /// `$select` members.
    @_spi(SyncTablesTools) public var select: [String] = []
    /// `$inlinecount=allpages`: ask for the total count of matching rows.
    @_spi(SyncTablesTools) public var includeTotalCount = false
    /// `__includeDeleted=true`: include soft-deleted rows.
    @_spi(SyncTablesTools) public var includeDeleted = false
    /// Further `name=value` parameters passed through untouched (names must not start with `$` or `__`).
    @_spi(SyncTablesTools) public var parameters: [(name: String, value: String)] = []

    /// Creates empty options.
    @_spi(SyncTablesTools) public init() {}

    /// The percent-encoded query string without the leading `?`.
    @_spi(SyncTablesTools) public var queryString: String {
        var pairs: [(String, String)] = []
        if let filter { pairs.append(("$filter", filter)) }
        if !orderBy.isEmpty { pairs.append(("$orderby", orderBy.joined(separator: ","))) }
        if let skip { pairs.append(("$skip", String(skip))) }
        if let top { pairs.append(("$top", String(top))) }
        if !select.isEmpty { pairs.append(("$select", select.joined(separator: ","))) }
        if includeTotalCount { pairs.append(("$inlinecount", "allpages")) }
        if includeDeleted { pairs.append(("__includeDeleted", "true")) }
        for parameter in parameters {
            pairs.append((PercentEncoding.queryValue(parameter.name), parameter.value))
        }
        return pairs.map { "\($0.0)=\(PercentEncoding.queryValue($0.1))" }.joined(separator: "&")
    }

    /// Checks the custom parameter names.
    @_spi(SyncTablesTools) public func validate() throws(RemoteError) {
        for parameter in parameters
        where parameter.name.isEmpty || parameter.name.hasPrefix("$") || parameter.name.hasPrefix("__") {
            throw .invalidQueryParameter(parameter.name)
        }
    }

    /// Whether two queries ask for the same thing.
    @_spi(SyncTablesTools) public static func == (lhs: TableQuery, rhs: TableQuery) -> Bool {
        lhs.queryString == rhs.queryString
    }

    /// Hashes what ``==(lhs:rhs:)`` compares.
    @_spi(SyncTablesTools) public func hash(into hasher: inout Hasher) {
        hasher.combine(queryString)
    }
}
