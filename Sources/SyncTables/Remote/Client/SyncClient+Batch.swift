import Foundation
@_spi(SyncTablesTools) import SyncTablesCore

/// One write inside a batch: the single request it stands for.
@_spi(SyncTablesTools) public struct BatchedWrite: Sendable {
    /// `POST` (insert), `PATCH` (update) or `DELETE`.
    @_spi(SyncTablesTools) public var method: TransportMethod
    /// The table.
    @_spi(SyncTablesTools) public var table: String
    /// The item id in the path; `nil` for an insert (`POST /tables/{table}`), whose id is in the body.
    @_spi(SyncTablesTools) public var id: String?
    /// The item version for `If-Match`, or `nil` for none.
    @_spi(SyncTablesTools) public var ifMatch: String?
    /// The body as sent (no system properties), or `nil` for none.
    @_spi(SyncTablesTools) public var body: JSONObject?
    /// The write's idempotency key, sent to servers that replay keyed writes; `nil` for none.
    @_spi(SyncTablesTools) public var idempotencyKey: String?

    /// The operation as the batch body carries it; `idempotencyKey` only when `carriesKey`.
    func json(carriesKey: Bool) -> JSONValue {
        var object = JSONObject(["method": .string(method.rawValue), "table": .string(table)])
        if let id { object["id"] = .string(id) }
        if let ifMatch, !ifMatch.isEmpty { object["ifMatch"] = .string(EntityTag.header(for: ifMatch)) }
        if let body { object["body"] = .object(body) }
        if carriesKey, let idempotencyKey { object["idempotencyKey"] = .string(idempotencyKey) }
        return .object(object)
    }

    /// About how many bytes the operation adds to a batch body (its body and its framing).
    var estimatedSize: Int {
        (body?.jsonBytes.count ?? 0) + table.utf8.count + (id?.utf8.count ?? 0) + (ifMatch?.utf8.count ?? 0)
            + (idempotencyKey?.utf8.count ?? 0) + 96
    }
}

extension SyncClient {
    /// The server's extensions, asked once per client (`GET /sync/capabilities`); a server that does not
    /// serve the document offers none. Throws ``TransportError`` when the server cannot be reached and
    /// ``HTTPStatusError`` for 401, so nothing is cached then.
    @_spi(SyncTablesTools) public func capabilities() async throws -> ServerExtensions {
        if let known = discoveredExtensions.withLock({ $0 }) { return known }
        let url = try extensionURL("/sync/capabilities")
        let response = try await send(TransportRequest(method: .get, url: url, timeout: configuration.timeout))
        if response.status == 401 { throw ResponseReading.statusError(from: response) }
        let capabilities =
            response.isSuccess
            ? ServerExtensions(document: (try? JSONValue(parsing: response.body)) ?? .null) : .none
        discoveredExtensions.withLock { $0 = capabilities }
        return capabilities
    }

    /// The server's extensions if ``capabilities()`` found them already; `nil` when it was not asked yet.
    package var knownExtensions: ServerExtensions? {
        discoveredExtensions.withLock { $0 }
    }

    /// Forgets that the server offers batches (it answered 404 or 405 to one), for this client's lifetime.
    package func stopBatching() {
        discoveredExtensions.withLock { known in
            var extensions: ServerExtensions = known ?? ServerExtensions.none
            extensions.batch = nil
            known = extensions
        }
    }

    /// `POST <batch path>`: sends the writes in one request and returns one response per write, in order,
    /// each as the single request would have had it (status, headers such as `ETag`, body).
    ///
    /// Throws ``HTTPStatusError`` when the batch itself is refused, ``RemoteError`` when its answer does not
    /// hold one result per write, ``TransportError`` when no answer arrives.
    package func sendBatch(_ writes: [BatchedWrite], to capability: BatchCapability, features: ZumoFeatures)
        async throws -> [TransportResponse]
    {
        let url = try extensionURL(capability.path)
        let operations = writes.map { $0.json(carriesKey: capability.carriesIdempotencyKeys) }
        let body = JSONValue.object(JSONObject(["operations": .array(operations)])).jsonBytes
        var request = TransportRequest(method: .post, url: url, body: body, timeout: configuration.timeout)
        // Batch bodies are JSON of similar items: they shrink severalfold, a slow uplink's biggest win.
        if capability.gzipsBody, body.count >= Self.smallestCompressedBody, let compressed = Gzip.compress(body) {
            request.body = compressed
            request.headers["Content-Encoding"] = "gzip"
        }
        let response = try await send(request, features: features)
        guard response.isSuccess else { throw ResponseReading.statusError(from: response) }
        return try Self.results(of: response, count: writes.count)
    }

    /// Bodies smaller than this go uncompressed: gzip's framing and the work cost more than they save.
    static let smallestCompressedBody = 1024

    /// The per-write responses of a batch answer `{"results": [{"status", "headers", "body"}, …]}`.
    private static func results(of response: TransportResponse, count: Int) throws(RemoteError)
        -> [TransportResponse]
    {
        func malformed(_ reason: String) -> RemoteError {
            .malformedResponse(status: response.status, body: response.body, reason: reason)
        }
        guard case .object(let object)? = try? JSONValue(parsing: response.body),
            case .array(let values)? = object["results"]
        else { throw malformed("a batch answer is an object with a 'results' array") }
        guard values.count == count else { throw malformed("\(values.count) results for \(count) operations") }
        var results: [TransportResponse] = []
        results.reserveCapacity(count)
        for value in values {
            guard case .object(let result) = value, case .integer(let status)? = result["status"] else {
                throw malformed("a batch result has no integer 'status'")
            }
            var headers = TransportHeaders()
            if case .object(let fields)? = result["headers"] {
                for (name, field) in fields.properties {
                    if case .string(let text) = field { headers.add(name: name, value: text) }
                }
            }
            let body: [UInt8]
            switch result["body"] {
            case nil, .null?: body = []
            case let json?: body = json.jsonBytes
            }
            results.append(TransportResponse(status: Int(status), headers: headers, body: body))
        }
        return results
    }

    /// `<base><path>` for an extension path from the server's root.
    func extensionURL(_ path: String) throws(RemoteError) -> URL {
        var text = configuration.url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        text += path
        guard let url = URL(string: text) else { throw .invalidURL(text) }
        return url
    }
}
