import HTTPTypes
import Hummingbird
import SyncTablesCore

/// Builds the `Link` header of a partial query page: the same absolute URL with
/// `$top = top - n` and, instead of `$skip = skip + n`, a `$skiptoken` holding where the page ended (see
/// ``Keyset``), every other parameter kept as sent, written without angle brackets. A page whose rows lack a
/// sort key (a `$select` without it) falls back to `$skip`.
enum NextLink {
    /// The header value, or `nil` when the page answered everything the client asked for.
    static func header(
        request: Request,
        query: QueryString,
        options: QueryOptions,
        page: QueryPage,
        fallbackAuthority: String
    ) -> String? {
        let returned = page.items.count
        guard returned > 0, returned == page.take, options.top > returned else { return nil }
        let ordering = options.effectiveOrdering
        let keyset = page.items.last.flatMap { last -> Keyset? in
            guard case .object(let row)? = try? JSONValue(parsing: last),
                ordering.allSatisfy({ row[$0.property] != nil || options.select == nil })
            else { return nil }
            return try? Keyset(after: row, ordering: ordering)
        }
        var parts: [String]
        if let keyset {
            parts = query.parameters.filter { !["$top", "$skip", "$skiptoken"].contains($0.name) }.map(\.raw)
            parts.append("$top=\(options.top - returned)")
            parts.append("$skiptoken=\(keyset.token)")
        } else {
            parts = query.parameters.filter { $0.name != "$top" && $0.name != "$skip" }.map(\.raw)
            parts.append("$top=\(options.top - returned)")
            parts.append("$skip=\(options.skip + returned)")
        }
        let authority = request.head.authority ?? fallbackAuthority
        return "http://\(authority)\(request.uri.path)?\(parts.joined(separator: "&")); rel=next"
    }
}
