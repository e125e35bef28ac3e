import Foundation
@_spi(SyncTablesTools) import SyncTablesCore

/// Turns table-protocol responses into items, pages and typed errors.
enum ResponseReading {
    /// The single item of a 2xx response, with `version` overridden by the `ETag` header.
    static func item(from response: TransportResponse) throws(RemoteError) -> JSONObject {
        let value = try json(from: response)
        guard case .object(var item) = value else {
            throw .malformedResponse(status: response.status, body: response.body, reason: "expected a JSON object")
        }
        applyETag(of: response, to: &item)
        return item
    }

    /// The item of a 2xx response that may have no body (a .NET server's `204` to DELETE).
    static func optionalItem(from response: TransportResponse) throws(RemoteError) -> JSONObject? {
        if response.body.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) { return nil }
        return try item(from: response)
    }

    /// A page of a query: a bare array, `{"results": [...], "count": N}`, or a single object.
    static func page(from response: TransportResponse, requestURL: URL) throws(RemoteError) -> RemotePage {
        let nextLink = response.headers["Link"].flatMap { LinkHeader.nextURL(in: $0, relativeTo: requestURL) }
        let capabilities = ServerCapabilities(headerValue: response.headers[ServerCapabilities.headerName])
        var page = try items(from: response, nextLink: nextLink)
        page.capabilities = capabilities
        return page
    }

    private static func items(from response: TransportResponse, nextLink: URL?) throws(RemoteError) -> RemotePage {
        switch try json(from: response) {
        case .array(let values):
            return RemotePage(items: try objects(values, response), nextLink: nextLink)
        case .object(let object):
            guard let results = object["results"] else {
                // .NET clients accept a lone item as a one-item page.
                return RemotePage(items: [object], nextLink: nextLink)
            }
            guard case .array(let values) = results else {
                throw .malformedResponse(
                    status: response.status, body: response.body, reason: "results is not an array")
            }
            let count: Int?
            switch object["count"] {
            case .integer(let value)?: count = Int(value)
            case nil, .null?: count = nil
            default:
                throw .malformedResponse(
                    status: response.status, body: response.body, reason: "count is not an integer")
            }
            return RemotePage(items: try objects(values, response), totalCount: count, nextLink: nextLink)
        default:
            throw .malformedResponse(
                status: response.status,
                body: response.body,
                reason: "expected a JSON array or object"
            )
        }
    }

    /// The error for a non-2xx response: message and server item read from the body when it is JSON.
    static func statusError(from response: TransportResponse) -> HTTPStatusError {
        var error = HTTPStatusError(status: response.status, body: response.body)
        // Only the delay-seconds form: an HTTP date would need the server's clock to agree with ours.
        if let text = response.headers["Retry-After"], let seconds = Int(text.trimmingCharacters(in: .whitespaces)),
            seconds >= 0
        {
            error.retryAfter = .seconds(seconds)
        }
        guard case .object(var object)? = try? JSONValue(parsing: response.body) else {
            return error
        }
        if case .string(let message)? = object["error"] ?? object["message"] {
            error.message = message
        }
        if case .string? = object["id"] {
            applyETag(of: response, to: &object)
            error.serverItem = object
        }
        return error
    }

    private static func json(from response: TransportResponse) throws(RemoteError) -> JSONValue {
        do {
            return try JSONValue(parsing: response.body)
        } catch {
            throw .malformedResponse(status: response.status, body: response.body, reason: String(describing: error))
        }
    }

    private static func objects(_ values: [JSONValue], _ response: TransportResponse) throws(RemoteError)
        -> [JSONObject]
    {
        var items: [JSONObject] = []
        items.reserveCapacity(values.count)
        for value in values {
            guard case .object(let item) = value else {
                throw .malformedResponse(
                    status: response.status, body: response.body, reason: "an item is not an object")
            }
            items.append(item)
        }
        return items
    }

    private static func applyETag(of response: TransportResponse, to item: inout JSONObject) {
        if let tag = response.headers["ETag"] {
            item["version"] = .string(EntityTag.version(fromETag: tag))
        }
    }
}
