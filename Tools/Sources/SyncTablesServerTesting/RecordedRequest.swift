@_spi(SyncTablesTools) import SyncTables

/// One request as the server received it, recorded by the test controls so tests can assert exact wire traffic.
public struct RecordedRequest: Sendable, Hashable {
    /// One query parameter, percent-decoded.
    public struct QueryParameter: Sendable, Hashable {
        /// The decoded name.
        public var name: String
        /// The decoded value.
        public var value: String
    }

    /// The HTTP method, e.g. `PATCH`.
    public var method: String
    /// The path as sent (still percent-encoded), e.g. `/tables/todo/a`.
    public var path: String
    /// The query string as sent, without `?`; `nil` when there was none.
    public var rawQuery: String?
    /// The decoded query parameters in request order.
    public var query: [QueryParameter]
    /// The headers, names lowercased; repeated headers joined with `, `.
    public var headers: [String: String]
    /// The body as UTF-8 text, or `nil` when empty.
    public var body: String?

    /// The value of a header, by case-insensitive name.
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    /// The decoded value of the first query parameter with this exact name.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// The record as JSON, the shape `GET /__test/requests` returns.
    public var json: JSONValue {
        var object = JSONObject()
        object["method"] = .string(method)
        object["path"] = .string(path)
        object["rawQuery"] = rawQuery.map(JSONValue.string) ?? .null
        object["query"] = .array(
            query.map { .object(JSONObject(["name": .string($0.name), "value": .string($0.value)])) }
        )
        object["headers"] = .object(JSONObject(headers.mapValues(JSONValue.string)))
        object["body"] = body.map(JSONValue.string) ?? .null
        return .object(object)
    }
}
