import Foundation

extension SyncClient {
    /// Whether the server holds the blob named `sha256` (`HEAD <blobs path>/<sha256>`).
    ///
    /// ```swift
    /// if try await !client.blobExists(sha256: hash) { try await upload(hash) }
    /// ```
    ///
    /// - Throws: ``BlobError`` when the server offers no blobs, the name is invalid or the caller is forbidden,
    ///   ``HTTPStatusError`` for other refusals, ``TransportError`` when the server cannot be reached.
    @_spi(SyncTablesTools) public func blobExists(sha256: String) async throws -> Bool {
        let url = try await blobURL(sha256)
        let response = try await send(TransportRequest(method: .head, url: url, timeout: configuration.timeout))
        switch response.status {
        case 200: return true
        case 404: return false
        default: throw Self.blobError(from: response, sha256: sha256)
        }
    }

    /// Downloads the blob named `sha256` from `offset` on (`GET`, with `Range: bytes=<offset>-` when `offset` is
    /// above 0) and returns as soon as the answer's head arrived; the bytes follow in ``BlobDownload/body``.
    ///
    /// A server that ignores the range sends the whole blob: then ``BlobDownload/startOffset`` is 0. An
    /// offset equal to the blob's size gives a finished download with an empty body.
    ///
    /// ```swift
    /// let download = try await client.downloadBlob(sha256: hash, from: 0)
    /// for try await chunk in download.body { try file.write(contentsOf: chunk) }
    /// ```
    ///
    /// - Throws: ``BlobError/notFound(sha256:)`` when the server holds no such blob, other ``BlobError``s when it
    ///   offers no blobs or refuses, ``HTTPStatusError`` for other statuses, ``TransportError``.
    @_spi(SyncTablesTools) public func downloadBlob(sha256: String, from offset: Int64 = 0) async throws
        -> BlobDownload
    {
        guard let streaming = transport as? any StreamingHTTPTransport else { throw BlobError.transportCannotStream }
        var request = TransportRequest(method: .get, url: try await blobURL(sha256), timeout: configuration.timeout)
        request.headers["Accept"] = "application/octet-stream"
        if offset > 0 { request.headers["Range"] = "bytes=\(offset)-" }
        let response = try await stream(request, through: streaming)
        let contentRange = response.headers["Content-Range"].flatMap(BlobContentRange.init(parsing:))
        switch response.status {
        case 200:
            let size = response.headers["Content-Length"].flatMap { Int64($0) }
            guard let size else { throw Self.malformed(response.status, "a blob without Content-Length") }
            return BlobDownload(totalSize: size, startOffset: 0, body: response.body)
        case 206:
            guard let contentRange, let start = contentRange.start else {
                throw Self.malformed(206, "a partial blob without a valid Content-Range")
            }
            return BlobDownload(totalSize: contentRange.size, startOffset: start, body: response.body)
        case 416 where contentRange?.size == offset:
            let nothing = StreamingResponse.Body(AsyncThrowingStream { $0.finish() })
            return BlobDownload(totalSize: offset, startOffset: offset, body: nothing)
        default:
            let whole = try? await response.collected(upTo: Self.largestBlobErrorBody)
            throw Self.blobError(
                from: whole ?? TransportResponse(status: response.status, headers: response.headers), sha256: sha256)
        }
    }

    /// The blob capability, asked once per client with the rest of the capabilities.
    func blobCapability() async throws -> BlobCapability {
        guard let blobs = try await capabilities().blobs else { throw BlobError.notOffered }
        return blobs
    }

    /// `<base><blobs path>/<sha256>`, the name checked.
    func blobURL(_ sha256: String) async throws -> URL {
        guard Self.isBlobName(sha256) else { throw BlobError.invalidName(sha256) }
        return try extensionURL(try await blobCapability().path + "/" + sha256)
    }

    /// A location the server handed out: a path from its root, or an absolute URL.
    func blobUploadURL(_ location: String) throws -> URL {
        if location.hasPrefix("/") { return try extensionURL(location) }
        guard let url = URL(string: location), url.scheme != nil else { throw RemoteError.invalidURL(location) }
        return url
    }

    /// The error for a blob request's answer: the statuses a blob endpoint gives meaning to become
    /// ``BlobError``s, the rest ``HTTPStatusError``.
    static func blobError(from response: TransportResponse, sha256: String) -> any Error {
        let statusError = ResponseReading.statusError(from: response)
        switch response.status {
        case 404: return BlobError.notFound(sha256: sha256)
        case 422: return BlobError.hashMismatch(sha256: sha256, message: statusError.message)
        case 413: return BlobError.tooLarge(sha256: sha256, maxBytes: nil)
        case 403: return BlobError.forbidden(sha256: sha256, message: statusError.message)
        default: return statusError
        }
    }

    static func malformed(_ status: Int, _ reason: String) -> RemoteError {
        RemoteError.malformedResponse(status: status, body: [], reason: "expected " + reason)
    }

    /// An error answer's body is read for its message up to this size.
    private static let largestBlobErrorBody = 64 * 1024

    private static func isBlobName(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
