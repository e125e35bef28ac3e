import HTTPTypes
import Hummingbird
import NIOCore
import SyncTablesCore

// `/sync/blobs/<sha256>`: content-addressed blobs beside the table protocol (see <doc:Blobs>). Authenticated and
// rate-limited as the table requests are, but routed before the request body is collected: an upload streams
// to storage while it is hashed, limited by `maxBlobBytes`, not by `maxBodySize`. With declared tables,
// `BlobAccess` decides who reads and uploads.

extension SyncResponder {
    /// Answers a request to the blob endpoints.
    func blobOutcome(_ request: Request, path: String, blobs: BlobService, context: Context) async throws
        -> RequestOutcome
    {
        do {
            return try await routeBlobRequest(request, path: path, blobs: blobs, context: context)
        } catch BlobStorageError.bodyInterrupted {
            // The client went away mid-upload (a resumable one keeps what arrived): nobody is left to answer.
            context.logger.debug("Blob upload interrupted", metadata: ["path": "\(path)"])
            return .drop
        }
    }

    private func routeBlobRequest(_ request: Request, path: String, blobs: BlobService, context: Context)
        async throws -> RequestOutcome
    {
        let caller = try await authenticate(request, context: context)
        let storage = blobs.storage
        let name = path.dropFirst(BlobSettings.path.count + 1)
        if name.hasPrefix("uploads/") {
            let token = String(name.dropFirst("uploads/".count))
            return .respond(
                try await uploadResource(
                    token, caller: caller, request: request, storage: storage, access: blobs.access))
        }
        guard !name.isEmpty, !name.contains("/") else { throw ServerError(.notFound, "Not found: \(path)") }
        guard let blob = BlobHash(name) else {
            throw ServerError(.badRequest, "A blob is named by its SHA-256 as 64 lowercase hexadecimal digits.")
        }
        switch request.method {
        case .head, .get:
            // A blob the caller may not read is as missing as one never stored: same status, same body.
            if let access = blobs.access, try await !access.mayRead(blob, caller: caller) {
                throw Self.blobNotFound(blob)
            }
            if request.method == .head { return .respond(try await blobHead(blob, storage: storage)) }
            return .respond(try await blobContents(blob, request: request, storage: storage))
        case .put:
            try blobs.access?.requireUploader(caller)
            if Self.isResumable(request) {
                return .respond(
                    try await createUpload(
                        blob, caller: caller, request: request, storage: storage, access: blobs.access))
            }
            let response = try await storeBlob(blob, request: request, storage: storage)
            // Recorded only once the bytes hashed right: an uploader proved it has them.
            try await blobs.access?.recordUpload(of: blob, by: caller, at: configuration.clock.now())
            return .respond(response)
        default: throw methodNotAllowed(request, allowed: "GET, HEAD, PUT")
        }
    }

    private func blobHead(_ blob: BlobHash, storage: any BlobStorage) async throws -> Response {
        guard let size = try await storage.size(of: blob) else { throw Self.blobNotFound(blob) }
        var headers = Self.blobHeaders(blob)
        headers[.contentLength] = String(size)
        return Response(status: .ok, headers: headers, body: ResponseBody())
    }

    private func blobContents(_ blob: BlobHash, request: Request, storage: any BlobStorage) async throws -> Response {
        guard let size = try await storage.size(of: blob) else { throw Self.blobNotFound(blob) }
        var headers = Self.blobHeaders(blob)
        if let tags = request.headers[.ifNoneMatch], Self.matches(tags, blob) {
            return Response(status: .notModified, headers: headers)
        }
        var status = HTTPResponse.Status.ok
        var range = Int64(0)...max(0, size - 1)
        if let header = request.headers[.range], let asked = ByteRange(header: header) {
            guard let resolved = asked.resolved(size: size) else {
                throw ServerError(
                    .rangeNotSatisfiable, "The range \(header) is outside the blob's \(size) bytes.",
                    headers: [.contentRange: "bytes */\(size)"])
            }
            range = resolved
            status = .partialContent
            headers[.contentRange] = "bytes \(resolved.lowerBound)-\(resolved.upperBound)/\(size)"
        }
        if size == 0 { return Response(status: .ok, headers: headers, body: ResponseBody()) }
        guard let body = try await storage.contents(of: blob, range: range) else { throw Self.blobNotFound(blob) }
        return Response(status: status, headers: headers, body: body)
    }

    private func storeBlob(_ blob: BlobHash, request: Request, storage: any BlobStorage) async throws -> Response {
        let limit = configuration.maxBlobBytes
        if let declared = request.headers[.contentLength].flatMap({ Int64($0) }), declared > limit {
            throw Self.blobTooLarge(limit)
        }
        if let encoding = request.headers[.contentEncoding], encoding.lowercased() != "identity" {
            throw ServerError(.unsupportedMediaType, "A blob is uploaded as it is, without a Content-Encoding.")
        }
        let outcome: BlobStoreOutcome
        do {
            outcome = try await storage.store(blob, from: request.body, limit: limit)
        } catch BlobStorageError.tooLarge(let limit) {
            throw Self.blobTooLarge(limit)
        } catch BlobStorageError.hashMismatch(let expected, let received) {
            throw ServerError(
                .unprocessableContent,
                "The uploaded bytes hash to \(received), not to \(expected); nothing was stored.")
        }
        let size = try await storage.size(of: blob) ?? 0
        let answer: JSONValue = .object(JSONObject(["sha256": .string(blob.hex), "size": .integer(size)]))
        var response = JSONResponse.json(answer, status: outcome == .created ? .created : .ok)
        response.headers.append(contentsOf: Self.blobHeaders(blob))
        response.headers[.location] = "\(BlobSettings.path)/\(blob.hex)"
        return response
    }

    /// The headers every answer about a stored blob carries: its hash as a strong validator; blobs never change.
    private static func blobHeaders(_ blob: BlobHash) -> HTTPFields {
        [
            .eTag: "\"\(blob.hex)\"", .acceptRanges: "bytes", .contentType: "application/octet-stream",
            .cacheControl: "private, max-age=31536000, immutable",
        ]
    }

    private static func matches(_ tags: String, _ blob: BlobHash) -> Bool {
        tags.split(separator: ",").contains { tag in
            let trimmed = String(tag.filter { $0 != " " && $0 != "\t" })
            return trimmed == "*" || trimmed == "\"\(blob.hex)\"" || trimmed == "W/\"\(blob.hex)\""
        }
    }

    private static func blobNotFound(_ blob: BlobHash) -> ServerError {
        ServerError(.notFound, "No blob \(blob) is stored.")
    }

    private static func blobTooLarge(_ limit: Int64) -> ServerError {
        ServerError(.contentTooLarge, "A blob may have at most \(limit) bytes.")
    }
}
