import Foundation

extension SyncClient {
    /// The size above which ``uploadBlob(sha256:body:resumeAt:resumableAbove:saveLocation:progress:)`` sends a
    /// blob as a resumable upload rather than one plain `PUT`: 4 MiB.
    @_spi(SyncTablesTools) public static let defaultResumableUploadThreshold: Int64 = 4 << 20

    /// Uploads the blob named `sha256` (its bytes' SHA-256 as 64 lowercase hex digits) from `body`; a blob the
    /// server holds already counts as uploaded.
    ///
    /// A body up to `threshold` bytes goes as one plain `PUT`. A larger one goes as a resumable upload (IETF
    /// draft "Resumable Uploads for HTTP", interop version 6): with `location` from an earlier attempt, the
    /// server's offset is asked (`HEAD`) and only the rest is sent; without one, or when the server forgot it
    /// (404 or 410), a new upload is created with no bytes and its location is handed to `saveLocation` before
    /// any byte is sent, so that a process killed midway resumes. The bytes then go in one `PATCH` from the
    /// server's offset to the end; an offset conflict (409) asks the offset again, a few times at most.
    ///
    /// ```swift
    /// try await client.uploadBlob(
    ///     sha256: hash, body: .file(url, range: 0..<size), resumeAt: savedLocation,
    ///     saveLocation: { try await outbox.save(location: $0, for: hash) })
    /// ```
    ///
    /// - Parameters:
    ///   - sha256: The blob's name.
    ///   - body: The blob's bytes.
    ///   - location: The upload location an earlier attempt saved, or `nil`.
    ///   - threshold: The largest body sent as one plain `PUT`.
    ///   - saveLocation: Keeps a new upload's location durably; its error stops the upload before any byte is sent.
    ///   - progress: Called with how many of the blob's bytes the server has or were sent, as they go.
    /// - Throws: ``BlobError`` (`hashMismatch` when the bytes do not hash to the name, `tooLarge`, `forbidden`,
    ///   `notOffered`, `transportCannotStream`), ``HTTPStatusError`` for other refusals, ``TransportError`` when
    ///   the connection fails (resume with the saved location), what the body's reader throws, `CancellationError`.
    @_spi(SyncTablesTools) public func uploadBlob(
        sha256: String,
        body: UploadBody,
        resumeAt location: String?,
        resumableAbove threshold: Int64 = defaultResumableUploadThreshold,
        saveLocation: @Sendable (String) async throws -> Void,
        progress: (@Sendable (_ bytes: Int64) -> Void)? = nil
    ) async throws {
        let url = try await blobURL(sha256)
        let limit = try await blobCapability().maxBytes
        guard body.length <= limit else { throw BlobError.tooLarge(sha256: sha256, maxBytes: limit) }
        guard let uploading = transport as? any UploadingHTTPTransport else { throw BlobError.transportCannotStream }
        let blob = BlobUploadTarget(sha256: sha256, url: url, maxBytes: limit, transport: uploading)
        if body.length <= threshold {
            try await putBlob(blob, body: body, progress: progress)
        } else {
            try await uploadResumably(
                blob, body: body, resumeAt: location, saveLocation: saveLocation, progress: progress)
        }
    }

    /// One plain `PUT` of the whole body.
    private func putBlob(_ blob: BlobUploadTarget, body: UploadBody, progress: (@Sendable (Int64) -> Void)?)
        async throws
    {
        var request = TransportRequest(method: .put, url: blob.url, timeout: configuration.timeout)
        request.headers["Content-Type"] = "application/octet-stream"
        let response = try await upload(request, body: body, through: blob.transport, progress: progress)
        guard response.status == 200 || response.status == 201 else { throw blob.error(from: response) }
    }

    private func uploadResumably(
        _ blob: BlobUploadTarget, body: UploadBody, resumeAt savedLocation: String?,
        saveLocation: @Sendable (String) async throws -> Void, progress: (@Sendable (Int64) -> Void)?
    ) async throws {
        var location = savedLocation
        for _ in 0..<Self.resumableUploadAttempts {
            let offset: Int64
            if let known = location, let serverOffset = try await uploadOffset(at: known, of: blob) {
                offset = serverOffset
            } else {
                let created = try await createUpload(blob)
                try await saveLocation(created)
                location = created
                offset = 0
            }
            guard let current = location else { continue }
            var request = TransportRequest(
                method: .patch, url: try blobUploadURL(current), timeout: configuration.timeout)
            request.headers["Content-Type"] = "application/partial-upload"
            request.headers["Upload-Draft-Interop-Version"] = Self.uploadInteropVersion
            request.headers["Upload-Offset"] = String(offset)
            request.headers["Upload-Complete"] = "?1"
            var sent: (@Sendable (Int64) -> Void)?
            if let progress { sent = { progress(offset + $0) } }
            let response = try await upload(
                request, body: body.tail(from: offset), through: blob.transport, progress: sent)
            switch response.status {
            case 200, 201, 204: return
            case 409: continue  // someone else's bytes or ours arrived meanwhile: ask the offset again
            case 404, 410: location = nil  // the upload expired: start over
            default: throw blob.error(from: response)
            }
        }
        throw BlobError.uploadNotProgressing(sha256: blob.sha256, attempts: Self.resumableUploadAttempts)
    }

    /// The server's offset of the upload at `location`; `nil` when it does not know the upload (404, 410).
    private func uploadOffset(at location: String, of blob: BlobUploadTarget) async throws -> Int64? {
        var request = TransportRequest(method: .head, url: try blobUploadURL(location), timeout: configuration.timeout)
        request.headers["Upload-Draft-Interop-Version"] = Self.uploadInteropVersion
        let response = try await send(request)
        switch response.status {
        case 200, 204:
            guard let offset = response.headers["Upload-Offset"].flatMap({ Int64($0) }), offset >= 0 else {
                throw Self.malformed(response.status, "an upload's Upload-Offset")
            }
            return offset
        case 404, 410: return nil
        default: throw blob.error(from: response)
        }
    }

    /// Creates an upload with no bytes yet and returns its location.
    private func createUpload(_ blob: BlobUploadTarget) async throws -> String {
        var request = TransportRequest(method: .put, url: blob.url, body: [], timeout: configuration.timeout)
        request.headers["Content-Type"] = "application/octet-stream"
        request.headers["Upload-Draft-Interop-Version"] = Self.uploadInteropVersion
        request.headers["Upload-Complete"] = "?0"
        let response = try await send(request)
        guard response.status == 201 || response.status == 200 || response.status == 204 else {
            throw blob.error(from: response)
        }
        guard let location = response.headers["Location"], !location.isEmpty else {
            throw Self.malformed(response.status, "a new upload's Location")
        }
        return location
    }

    /// A streamed-body request with the client's standard headers, decorator and 401 handling.
    private func upload(
        _ request: TransportRequest, body: UploadBody, through transport: any UploadingHTTPTransport,
        progress: (@Sendable (Int64) -> Void)?
    ) async throws -> TransportResponse {
        try await exchange(request, features: [], status: \.status) {
            try await transport.upload($0, body: body, progress: progress)
        }
    }

    /// The draft's interop version the server speaks.
    private static let uploadInteropVersion = "6"
    /// How many times an upload asks the server's offset (or starts over) before giving up.
    private static let resumableUploadAttempts = 5
}

/// The blob an upload is for, and what every step of it needs.
private struct BlobUploadTarget {
    var sha256: String
    var url: URL
    var maxBytes: Int64
    var transport: any UploadingHTTPTransport

    func error(from response: TransportResponse) -> any Error {
        if response.status == 413 { return BlobError.tooLarge(sha256: sha256, maxBytes: maxBytes) }
        return SyncClient.blobError(from: response, sha256: sha256)
    }
}
