import Foundation

/// One page of a table query as the server returned it.
package struct RemotePage: Sendable, Hashable {
    /// The items, in the server's order.
    package var items: [JSONObject]
    /// The total count of matching rows, when `$inlinecount=allpages` was asked for and returned.
    package var totalCount: Int?
    /// The `rel=next` link from the `Link` header, resolved to an absolute URL.
    package var nextLink: URL?
    /// The protocol extensions the response advertised.
    package var capabilities: ServerCapabilities

    package init(
        items: [JSONObject], totalCount: Int? = nil, nextLink: URL? = nil,
        capabilities: ServerCapabilities = ServerCapabilities()
    ) {
        self.items = items
        self.totalCount = totalCount
        self.nextLink = nextLink
        self.capabilities = capabilities
    }
}
