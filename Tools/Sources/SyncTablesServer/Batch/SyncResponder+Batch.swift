import HTTPTypes
import Hummingbird
import NIOCore
import SyncTablesCore

// The batch extension: each operation runs as the single request it stands for, through the same
// request log, faults, authentication, version check and table routes, one after another in order.

extension SyncResponder {
    /// Answers the `/sync/…` extension paths (the change feed's is in `SyncResponder+ChangeFeed`); `nil` for
    /// any other path.
    func extensionOutcome(_ request: Request, path: String, query: QueryString, body: [UInt8], context: Context)
        async throws -> RequestOutcome?
    {
        switch path {
        case CapabilitiesDocument.path:
            try await checkAccess(request, query: query, context: context)
            guard request.method == .get else { throw methodNotAllowed(request, allowed: "GET") }
            return .respond(JSONResponse.json(CapabilitiesDocument.document(configuration), status: .ok))
        case CapabilitiesDocument.batchPath where configuration.maxBatchOperations > 0:
            try await checkAccess(request, query: query, context: context)
            guard request.method == .post else { throw methodNotAllowed(request, allowed: "POST") }
            let operations = try BatchOperation.list(from: body, limit: configuration.maxBatchOperations)
            return try await runBatch(operations, of: request, context: context)
        case ChangeFeedSettings.path:
            guard let changes else { return nil }
            return try await changeFeed(request, query: query, hub: changes, context: context)
        default:
            return nil
        }
    }

    /// Runs the operations in order; a dropped operation drops the whole batch (the connection closes).
    private func runBatch(_ operations: [BatchOperation], of batch: Request, context: Context) async throws
        -> RequestOutcome
    {
        var results: [JSONValue] = []
        results.reserveCapacity(operations.count)
        for operation in operations {
            let response: Response
            switch await handleOrRespond(Self.request(for: operation, in: batch), context: context) {
            case .respond(let answer): response = answer
            case .drop: return .drop
            }
            results.append(try await ResponseCollector.result(of: response))
        }
        return .respond(JSONResponse.json(.object(JSONObject(["results": .array(results)])), status: .ok))
    }

    /// The single request an operation stands for: the batch's headers (authentication, API version,
    /// features) with the operation's `If-Match`, `Idempotency-Key` and body.
    private static func request(for operation: BatchOperation, in batch: Request) -> Request {
        var fields = HTTPFields()
        var replaced: Set<HTTPField.Name> = [
            .contentLength, .contentType, .contentEncoding, .ifMatch, .transferEncoding,
        ]
        // A key names one write: one sent with the batch itself is no operation's.
        if let keyField = IdempotencyKey.field { replaced.insert(keyField) }
        for field in batch.headers where !replaced.contains(field.name) { fields.append(field) }
        if let ifMatch = operation.ifMatch { fields[.ifMatch] = ifMatch }
        if let key = operation.idempotencyKey, let keyField = IdempotencyKey.field {
            fields[keyField] = IdempotencyKey.fieldValue(for: key)
        }
        let body = operation.body.map(WireJSON.bytes) ?? []
        if operation.body != nil {
            fields[.contentType] = "application/json"
            fields[.contentLength] = String(body.count)
        }
        let head = HTTPRequest(
            method: HTTPRequest.Method(operation.method) ?? .post, scheme: batch.head.scheme,
            authority: batch.head.authority, path: operation.path, headerFields: fields)
        return Request(head: head, body: RequestBody(buffer: ByteBuffer(bytes: body)))
    }

    private func checkAccess(_ request: Request, query: QueryString, context: Context) async throws {
        _ = try await authenticate(request, context: context)
        try APIVersion.check(request, query: query)
    }

    func methodNotAllowed(_ request: Request, allowed: String) -> ServerError {
        ServerError(
            .methodNotAllowed, "The method \(request.method) is not allowed here; use \(allowed).",
            headers: [.allow: allowed])
    }
}
