import SyncTablesCore

/// The OData options of one `GET /tables/{table}` request, validated.
struct QueryOptions: Sendable {
    /// The parsed `$filter`.
    var filter: FilterExpression?
    /// The parsed `$orderby`.
    var ordering: [SortDescriptor] = []
    /// The requested `$top`, or the maximum when absent.
    var top: Int
    /// The requested `$skip`.
    var skip: Int = 0
    /// The `$select` properties (the id is always returned too).
    var select: [String]?
    /// Whether `$inlinecount=allpages` asked for the total count.
    var inlineCount = false
    /// Whether `__includeDeleted` asked for soft-deleted rows.
    var includeDeleted = false
    /// Where the previous page ended (`$skiptoken` from a next-page link): this page starts after it.
    var keyset: Keyset?

    /// The order rows come in: the requested keys, then `id` (which the store always breaks ties by).
    var effectiveOrdering: [SortDescriptor] {
        ordering.contains { $0.property == "id" } ? ordering : ordering + [SortDescriptor("id")]
    }

    /// The ordering handed to the store: the requested keys without a trailing ascending `id`, which the store
    /// adds itself as its tie-breaker. Asked for twice, SQLite sorted each run of equal keys again
    /// (`$orderby=updatedAt,id`, the keyset pull's order, read through a temporary B-tree).
    var storeOrdering: [SortDescriptor] {
        guard let last = ordering.last, last.property == "id", last.ascending else { return ordering }
        return Array(ordering.dropLast())
    }

    /// Validates the query string against the server's limits.
    init(_ query: QueryString, maxTop: Int) throws(ServerError) {
        top = maxTop
        if let text = query.value("$top") {
            guard let value = Int(text), value >= 0 else {
                throw ServerError(.badRequest, "Invalid $top value '\(text)': expected a non-negative integer.")
            }
            guard value <= maxTop else {
                throw ServerError(.badRequest, "You cannot request more than \(maxTop) records")
            }
            top = value
        }
        if let text = query.value("$skip") {
            guard let value = Int(text), value >= 0 else {
                throw ServerError(.badRequest, "Invalid $skip value '\(text)': expected a non-negative integer.")
            }
            skip = value
        }
        if let text = query.value("$filter"), !text.isEmpty {
            filter = try ODataBridge.filter(text)
        }
        if let text = query.value("$orderby"), !text.isEmpty {
            ordering = try ODataBridge.ordering(text)
        }
        if let text = query.value("$select") {
            let names = text.split(separator: ",", omittingEmptySubsequences: false).map { part in
                String(part.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
            }
            guard !names.isEmpty, names.allSatisfy({ !$0.isEmpty }) else {
                throw ServerError(.badRequest, "Invalid $select value '\(text)': expected a comma-separated list.")
            }
            // `*` asks for every property, which is what no projection returns.
            select = names.contains("*") ? nil : names
        }
        if let token = query.value("$skiptoken") {
            keyset = try Keyset(token: token, ordering: effectiveOrdering)
        }
        inlineCount = query.value("$inlinecount") == "allpages"
        includeDeleted = Self.includesDeleted(query)
    }

    /// Whether `__includeDeleted` (name in any case) is present with a value other than empty, `false`, `0` or
    /// `no`.
    ///
    /// Node treats any non-empty value as true; an explicit false is honoured here, as the .NET server does.
    static func includesDeleted(_ query: QueryString) -> Bool {
        guard let flag = query.valueIgnoringCase("__includeDeleted") else { return false }
        return !["", "false", "0", "no"].contains(flag.lowercased())
    }
}
