import HTTPTypes
import Hummingbird

/// Builds the `Link` header of a partial query page: the same absolute URL with
/// `$top = top - n` and `$skip = skip + n`, every other parameter kept as sent, written without angle brackets.
enum NextLink {
    /// The header value, or `nil` when the page answered everything the client asked for.
    static func header(
        request: Request,
        query: QueryString,
        options: QueryOptions,
        returned: Int,
        take: Int,
        fallbackAuthority: String
    ) -> String? {
        guard returned > 0, returned == take, options.top > returned else { return nil }
        var parts = query.parameters.filter { $0.name != "$top" && $0.name != "$skip" }.map(\.raw)
        parts.append("$top=\(options.top - returned)")
        parts.append("$skip=\(options.skip + returned)")
        let authority = request.head.authority ?? fallbackAuthority
        return "http://\(authority)\(request.uri.path)?\(parts.joined(separator: "&")); rel=next"
    }
}
