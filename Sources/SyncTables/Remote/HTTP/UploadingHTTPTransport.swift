/// An ``HTTPTransport`` that can also send a large request body without holding it in memory: it pulls the
/// body from an ``UploadBody`` chunk by chunk (at most a mebibyte at a time) while the request goes out.
///
/// The request's own ``TransportRequest/body`` is ignored; the request carries `Content-Length: body.length`.
/// The request's ``TransportRequest/timeout`` bounds connecting and any stall (no byte moving for that long),
/// not the whole transfer, which may last long on a slow link. Cancelling the calling task aborts the transfer
/// promptly and throws `CancellationError`; an error thrown by the body's reader aborts it too and is rethrown.
/// SyncTables' ``CurlTransport`` and ``URLSessionTransport`` conform.
///
/// ```swift
/// var request = TransportRequest(method: .put, url: blobURL)
/// request.headers["Content-Type"] = "application/octet-stream"
/// let response = try await transport.upload(request, body: .file(fileURL, range: 0..<size)) { sent in
///     print("sent \(sent) bytes")
/// }
/// ```
public protocol UploadingHTTPTransport: HTTPTransport {
    /// Sends the request with `body` as its body and returns the whole response, whatever its status.
    ///
    /// - Parameters:
    ///   - request: The method (`PUT`, `PATCH`, `POST`), URL, headers and time limit.
    ///   - body: The body; its reader is made when the transfer starts and called on the transport's thread.
    ///   - progress: Called with the number of body bytes handed to the network so far, on the transport's thread.
    /// - Throws: ``TransportError`` when no response arrives, `CancellationError` when the calling task is
    ///   cancelled, and what the body's reader throws.
    func upload(
        _ request: TransportRequest, body: UploadBody, progress: (@Sendable (_ sentBytes: Int64) -> Void)?
    ) async throws -> TransportResponse
}
