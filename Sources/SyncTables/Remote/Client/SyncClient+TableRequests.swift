import Foundation
@_spi(SyncTablesTools) import SyncTablesCore

/// The table-protocol requests that push, pull and ``RemoteTable`` are built on.
///
/// Each method sends one request with the client's standard headers, returns the server's item(s) with
/// `version` taken from the `ETag` header, and throws ``HTTPStatusError`` for non-2xx statuses,
/// ``RemoteError`` for malformed responses or arguments, ``TransportError`` for network failures and
/// `CancellationError` when the task is cancelled. Bodies never carry the system properties
/// (`version`, `createdAt`, `updatedAt`, `deleted`, any case): the version travels in `If-Match`.
extension SyncClient {
    /// The system properties the server owns, lower-cased.
    static let systemPropertyNames: Set<String> = ["version", "createdat", "updatedat", "deleted"]

    /// `POST /tables/{table}`: creates the item (with its id) and returns the server's copy.
    ///
    /// The writes send `idempotencyKey`, when given, for a server that replays keyed writes.
    package func insert(
        table: String, item: JSONObject, features: ZumoFeatures = [], idempotencyKey: IdempotencyKey? = nil
    ) async throws -> JSONObject {
        _ = try Self.itemID(of: item)
        let url = try tableURL(table)
        let response = try await sendTableRequest(
            .post, url: url, body: Self.wireBody(item), features: features, idempotencyKey: idempotencyKey)
        return try ResponseReading.item(from: response)
    }

    /// `PATCH /tables/{table}/{id}` with `If-Match` when `version` is non-empty: merges the item's
    /// properties into the server's copy and returns the result.
    package func update(
        table: String,
        item: JSONObject,
        ifMatch version: String?,
        features: ZumoFeatures = [],
        idempotencyKey: IdempotencyKey? = nil
    ) async throws -> JSONObject {
        let url = try tableURL(table, id: try Self.itemID(of: item))
        let response = try await sendTableRequest(
            .patch,
            url: url,
            body: Self.wireBody(item),
            ifMatch: version,
            features: features,
            idempotencyKey: idempotencyKey
        )
        return try ResponseReading.item(from: response)
    }

    /// `DELETE /tables/{table}/{id}` with `If-Match` when `version` is non-empty; returns the deleted item
    /// when the server sends it back (Node), `nil` for an empty reply (ASP.NET's 204).
    @discardableResult
    package func delete(
        table: String,
        id: String,
        ifMatch version: String?,
        features: ZumoFeatures = [],
        idempotencyKey: IdempotencyKey? = nil
    ) async throws -> JSONObject? {
        let url = try tableURL(table, id: id)
        let response = try await sendTableRequest(
            .delete, url: url, ifMatch: version, features: features, idempotencyKey: idempotencyKey)
        return try ResponseReading.optionalItem(from: response)
    }

    /// `GET /tables/{table}/{id}`: the server's copy of one item (a missing item is a 404 ``HTTPStatusError``).
    @_spi(SyncTablesTools) public func lookup(table: String, id: String, features: ZumoFeatures = []) async throws
        -> JSONObject
    {
        let url = try tableURL(table, id: id)
        let response = try await sendTableRequest(.get, url: url, features: features)
        return try ResponseReading.item(from: response)
    }

    /// `POST /tables/{table}/{id}` without a body: restores a soft-deleted item and returns it.
    @_spi(SyncTablesTools) public func undelete(
        table: String,
        id: String,
        ifMatch version: String?,
        features: ZumoFeatures = []
    ) async throws -> JSONObject {
        let url = try tableURL(table, id: id)
        let response = try await sendTableRequest(.post, url: url, body: [], ifMatch: version, features: features)
        return try ResponseReading.item(from: response)
    }

    /// `GET /tables/{table}?{options}`: one page of items.
    @_spi(SyncTablesTools) public func query(table: String, query: TableQuery, features: ZumoFeatures = []) async throws
        -> RemotePage
    {
        try query.validate()
        return try await self.query(table: table, queryString: query.queryString, features: features)
    }

    /// `GET /tables/{table}?{queryString}` with an already percent-encoded query string (no leading `?`).
    @_spi(SyncTablesTools) public func query(table: String, queryString: String, features: ZumoFeatures = [])
        async throws -> RemotePage
    {
        let base = try tableURL(table)
        let text = queryString.isEmpty ? base.absoluteString : base.absoluteString + "?" + queryString
        guard let url = URL(string: text) else { throw RemoteError.invalidURL(text) }
        return try await query(url: url, features: features)
    }

    /// `GET` of an absolute query URL, such as a `rel=next` link from a previous page.
    @_spi(SyncTablesTools) public func query(url: URL, features: ZumoFeatures = []) async throws -> RemotePage {
        let response = try await sendTableRequest(.get, url: url, features: features)
        return try ResponseReading.page(from: response, requestURL: url)
    }

    // MARK: Building blocks

    /// `<base>/tables/<table>[/<id>]` with the id percent-encoded like `Uri.EscapeDataString`.
    package func tableURL(_ table: String, id: String? = nil) throws(RemoteError) -> URL {
        try Self.validateTableName(table)
        var text = configuration.url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        text += "/tables/" + table
        if let id {
            do {
                try ItemID.validate(id)
            } catch {
                throw .invalidItemID(id, reason: String(describing: error))
            }
            text += "/" + PercentEncoding.pathSegment(id)
        }
        guard let url = URL(string: text) else { throw .invalidURL(text) }
        return url
    }

    /// Sends one table request; throws ``HTTPStatusError`` for a non-2xx answer.
    func sendTableRequest(
        _ method: TransportMethod,
        url: URL,
        body: [UInt8]? = nil,
        ifMatch version: String? = nil,
        features: ZumoFeatures,
        idempotencyKey: IdempotencyKey? = nil
    ) async throws -> TransportResponse {
        var request = TransportRequest(method: method, url: url, body: body, timeout: configuration.timeout)
        if let version, !version.isEmpty {
            request.headers["If-Match"] = EntityTag.header(for: version)
        }
        if let idempotencyKey { request.headers[idempotencyKey.header] = idempotencyKey.fieldValue }
        let response = try await send(request, features: features)
        guard response.isSuccess else { throw ResponseReading.statusError(from: response) }
        return response
    }

    /// The item's string id, validated.
    static func itemID(of item: JSONObject) throws(RemoteError) -> String {
        guard case .string(let id)? = item["id"] else { throw .missingItemID }
        do {
            try ItemID.validate(id)
        } catch {
            throw .invalidItemID(id, reason: String(describing: error))
        }
        return id
    }

    /// The item as sent: without the server-owned system properties.
    static func wireBody(_ item: JSONObject) -> [UInt8] {
        wireObject(item).jsonBytes
    }

    /// The item without the server-owned system properties.
    static func wireObject(_ item: JSONObject) -> JSONObject {
        var body = item
        for name in item.properties.keys where systemPropertyNames.contains(name.lowercased()) {
            body[name] = nil
        }
        return body
    }

    /// Table names follow the store's rule: a letter or `_`, then letters, digits or `_`, at most 128.
    static func validateTableName(_ name: String) throws(RemoteError) {
        let bytes = Array(name.utf8)
        func isLetter(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || byte == UInt8(ascii: "_")
        }
        guard let first = bytes.first, bytes.count <= 128, isLetter(first),
            bytes.allSatisfy({ isLetter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { throw .invalidTableName(name) }
    }
}
