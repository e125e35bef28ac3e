import Foundation
@_spi(SyncTablesTools) import SyncTablesCore

/// One page of a table query as the server returned it.
@_spi(SyncTablesTools) public struct RemotePage: Sendable, Hashable {
    /// The items, in the server's order.
    @_spi(SyncTablesTools) public var items: [JSONObject]
    /// The total count of matching rows, when `$inlinecount=allpages` was asked for and returned.
    @_spi(SyncTablesTools) public var totalCount: Int?
    /// The `rel=next` link from the `Link` header, resolved to an absolute URL.
    @_spi(SyncTablesTools) public var nextLink: URL?
    /// The protocol extensions the response advertised.
    @_spi(SyncTablesTools) public var capabilities: ServerCapabilities

    /// A page of `items`, with the next-page link, the total count and the capabilities the response named.
    @_spi(SyncTablesTools) public init(
        items: [JSONObject], totalCount: Int? = nil, nextLink: URL? = nil,
        capabilities: ServerCapabilities = ServerCapabilities()
    ) {
        self.items = items
        self.totalCount = totalCount
        self.nextLink = nextLink
        self.capabilities = capabilities
    }
}
