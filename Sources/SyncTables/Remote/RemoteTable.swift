import Foundation
@_spi(SyncTablesTools) import SyncTablesCore

/// Online create, read, update and delete straight against the server, with no local store: the typed
/// face of the table protocol.
///
/// Every call is one request (a query may follow `rel=next` links for more pages); nothing is queued or
/// retried. Conflicts surface as ``HTTPStatusError`` with the server's item.
///
/// ```swift
/// let todos = RemoteTable<TodoItem>(client: client, name: "todoitem")
/// var item = try await todos.insert(TodoItem(id: "", text: "Buy milk", complete: false))
/// item.complete = true
/// item = try await todos.update(item)                  // If-Match: the item's version
/// let open = try await todos.query(filter: .comparison(.equal, .property("complete"), .value(false)))
/// try await todos.delete(item)
/// ```
public struct RemoteTable<Item: SyncItem>: Sendable {
    /// The client that sends the requests.
    public let client: SyncClient
    /// The table's name on the server.
    public let name: String

    /// Creates a handle on the server table `name` (by default the item type's name).
    public init(client: SyncClient, name: String? = nil) {
        self.client = client
        self.name = name ?? String(describing: Item.self)
    }

    /// Creates the item on the server and returns the server's copy; an empty id is replaced by a new one.
    ///
    /// - Throws: ``HTTPStatusError`` when the server refuses the request (a 409 or 412 conflict carries the server's
    ///   item), ``TransportError`` when it cannot be reached, ``RemoteError`` when the item cannot be encoded or the
    ///   answer decoded.
    public func insert(_ item: Item) async throws -> Item {
        var object = try encode(item)
        if case .string(let id)? = object["id"], !id.isEmpty {
            // Keep the caller's id.
        } else {
            object["id"] = .string(ItemID.generate())
        }
        return try decode(try await client.insert(table: name, item: object, features: .typedTable))
    }

    /// Sends the item's properties to the server (`PATCH`), guarded by its `version` when it has one.
    ///
    /// - Throws: ``HTTPStatusError`` when the server refuses the request (a 409 or 412 conflict carries the server's
    ///   item), ``TransportError`` when it cannot be reached, ``RemoteError`` when the item cannot be encoded or the
    ///   answer decoded.
    public func update(_ item: Item) async throws -> Item {
        let object = try encode(item)
        let updated = try await client.update(
            table: name,
            item: object,
            ifMatch: ItemVersion.version(of: object),
            features: .typedTable
        )
        return try decode(updated)
    }

    /// Deletes the item on the server, guarded by its `version` when it has one.
    ///
    /// - Throws: ``HTTPStatusError`` when the server refuses the request (a 409 or 412 conflict carries the server's
    ///   item), ``TransportError`` when it cannot be reached, ``RemoteError`` when the item cannot be encoded.
    public func delete(_ item: Item) async throws {
        let object = try encode(item)
        try await client.delete(
            table: name, id: item.id, ifMatch: ItemVersion.version(of: object), features: .typedTable)
    }

    /// Deletes the item with the id on the server, whatever its version.
    ///
    /// - Throws: ``HTTPStatusError`` when the server refuses the request (a 409 or 412 conflict carries the server's
    ///   item), ``TransportError`` when it cannot be reached, ``RemoteError`` when the request cannot be built.
    public func delete(id: String) async throws {
        try await client.delete(table: name, id: id, ifMatch: nil, features: .typedTable)
    }

    /// The server's copy of the item with the id, or `nil` when the server answers 404.
    ///
    /// - Throws: ``HTTPStatusError`` when the server refuses the request (other than 404), ``TransportError`` when it
    ///   cannot be reached, ``RemoteError`` when the answer cannot be decoded.
    public func lookup(id: String) async throws -> Item? {
        do {
            return try decode(try await client.lookup(table: name, id: id, features: .typedTable))
        } catch let error as HTTPStatusError where error.status == 404 {
            return nil
        }
    }

    /// Restores a soft-deleted item on the server and returns it.
    ///
    /// - Throws: ``HTTPStatusError`` when the server refuses the request (a 409 or 412 conflict carries the server's
    ///   item), ``TransportError`` when it cannot be reached, ``RemoteError`` when the answer cannot be decoded.
    public func undelete(id: String, version: String? = nil) async throws -> Item {
        try decode(try await client.undelete(table: name, id: id, ifMatch: version, features: .typedTable))
    }

    /// The server's items matching the filter, in the given order, following `rel=next` links on the
    /// client's own host until `top` items (or the end) are reached.
    ///
    /// ```swift
    /// let firstTen = try await todos.query(orderBy: [SyncTablesCore.SortDescriptor("text")], top: 10)
    /// ```
    ///
    /// - Throws: `ODataError` when the filter or the ordering has no OData form, ``HTTPStatusError`` when the server
    ///   refuses a request, ``TransportError`` when it cannot be reached, ``RemoteError`` when an answer cannot be
    ///   decoded.
    public func query(
        filter: FilterExpression? = nil,
        orderBy: [SyncTablesCore.SortDescriptor] = [],
        top: Int? = nil,
        skip: Int? = nil
    ) async throws -> [Item] {
        let filterText = try filter.map { expression throws(ODataError) in try ODataFilterWriter.text(for: expression) }
        let orderText = orderBy.isEmpty ? nil : try ODataOrderBy.text(for: orderBy)
        return try await query(odataFilter: filterText, orderBy: orderText, top: top, skip: skip)
    }

    /// Like ``query(filter:orderBy:top:skip:)`` with `$filter` and `$orderby` given as OData text.
    ///
    /// ```swift
    /// let open = try await todos.query(odataFilter: "complete eq false", orderBy: "updatedAt desc")
    /// ```
    ///
    /// - Throws: ``HTTPStatusError`` when the server refuses a request, ``TransportError`` when it cannot be reached,
    ///   ``RemoteError`` when an answer cannot be decoded.
    public func query(
        odataFilter: String?,
        orderBy: String? = nil,
        top: Int? = nil,
        skip: Int? = nil
    ) async throws -> [Item] {
        var options = TableQuery()
        options.filter = odataFilter
        options.orderBy = orderBy.map { [$0] } ?? []
        options.top = top
        options.skip = skip
        var page = try await client.query(table: name, query: options, features: [.typedTable, .queryObject])
        var objects = page.items
        while let next = page.nextLink, isOwnHost(next), top.map({ objects.count < $0 }) ?? true, !page.items.isEmpty {
            page = try await client.query(url: next, features: [.typedTable, .queryObject, .absoluteLink])
            objects += page.items
        }
        if let top, objects.count > top { objects.removeLast(objects.count - top) }
        return try objects.map { object throws in try decode(object) }
    }

    // MARK: Coding

    private func encode(_ item: Item) throws -> JSONObject {
        let value: JSONValue
        do {
            value = try JSONValueEncoder().encode(item)
        } catch {
            throw RemoteError.unencodableItem(reason: String(describing: error))
        }
        guard case .object(let object) = value else {
            throw RemoteError.unencodableItem(reason: "\(Item.self) does not encode as a JSON object")
        }
        return object
    }

    private func decode(_ object: JSONObject) throws -> Item {
        do {
            return try JSONValueDecoder().decode(Item.self, from: object)
        } catch {
            throw RemoteError.undecodableItem(object, reason: String(describing: error))
        }
    }

    /// Links are followed only to the client's own scheme, host and port, so a server cannot send the
    /// client's credentials elsewhere.
    private func isOwnHost(_ url: URL) -> Bool {
        let base = client.configuration.url
        return url.scheme?.lowercased() == base.scheme?.lowercased()
            && url.host?.lowercased() == base.host?.lowercased()
            && url.port == base.port
    }
}
