@_spi(SyncTablesTools) import SyncTablesCore

/// One write of a `POST /sync/batch` request: the single request it stands for.
struct BatchOperation: Sendable {
    /// `POST`, `PATCH` or `DELETE`.
    var method: String
    /// The table, as in `/tables/{table}`.
    var table: String
    /// The item id, as in `/tables/{table}/{id}`; `nil` for an insert (`POST /tables/{table}`).
    var id: String?
    /// The `If-Match` header value, quotes included, or `nil`.
    var ifMatch: String?
    /// The request body, or `nil` for none.
    var body: JSONValue?
    /// The `Idempotency-Key` of the write (the idempotency extension), or `nil`.
    var idempotencyKey: String?

    /// The methods a batch may carry: the writes of push.
    static let methods: Set<String> = ["POST", "PATCH", "DELETE"]

    /// The path the single request would have, percent-encoded as clients send it.
    var path: String {
        var path = "/tables/" + PercentEncoding.pathSegment(table)
        if let id { path += "/" + PercentEncoding.pathSegment(id) }
        return path
    }

    /// The operations of a batch body `{"operations": [...]}`; malformed input is a 400 naming the operation.
    static func list(from body: [UInt8], limit: Int) throws(ServerError) -> [BatchOperation] {
        guard case .object(let object) = try WireJSON.parse(body), case .array(let values)? = object["operations"]
        else {
            throw ServerError(.badRequest, "A batch is a JSON object with an 'operations' array.")
        }
        guard values.count <= limit else {
            throw ServerError(.contentTooLarge, "A batch holds at most \(limit) operations, not \(values.count).")
        }
        var operations: [BatchOperation] = []
        operations.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            operations.append(try operation(from: value, index: index))
        }
        return operations
    }

    private static func operation(from value: JSONValue, index: Int) throws(ServerError) -> BatchOperation {
        func invalid(_ reason: String) -> ServerError {
            ServerError(.badRequest, "Batch operation \(index): \(reason)")
        }
        guard case .object(let object) = value else { throw invalid("not a JSON object") }
        guard case .string(let method)? = object["method"], methods.contains(method) else {
            throw invalid("'method' must be POST, PATCH or DELETE")
        }
        guard case .string(let table)? = object["table"] else { throw invalid("'table' must be a string") }
        var id: String?
        switch object["id"] {
        case .string(let text)?: id = text
        case nil, .null?: id = nil
        default: throw invalid("'id' must be a string")
        }
        var ifMatch: String?
        switch object["ifMatch"] {
        case .string(let text)?: ifMatch = text
        case nil, .null?: ifMatch = nil
        default: throw invalid("'ifMatch' must be a string")
        }
        let body: JSONValue? = object["body"].flatMap { $0 == .null ? nil : $0 }
        var idempotencyKey: String?
        switch object["idempotencyKey"] {
        case .string(let text)?:
            guard let key = try? IdempotencyKey.validated(text) else {
                throw invalid(
                    "'idempotencyKey' must be 1 to \(IdempotencyKey.maximumLength) printable ASCII characters")
            }
            idempotencyKey = key
        case nil, .null?: idempotencyKey = nil
        default: throw invalid("'idempotencyKey' must be a string")
        }
        return BatchOperation(
            method: method, table: table, id: id, ifMatch: ifMatch, body: body, idempotencyKey: idempotencyKey)
    }
}
