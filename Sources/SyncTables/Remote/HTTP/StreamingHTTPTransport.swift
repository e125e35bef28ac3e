/// An ``HTTPTransport`` that can also hand over a response while its body is still arriving: for long-lived
/// responses such as a server's change feed (Server-Sent Events).
///
/// ``stream(_:)`` returns as soon as the status line and headers arrived; the body follows as chunks, in the
/// order and sizes the network delivers them. The request's ``TransportRequest/timeout`` bounds connecting
/// and waiting for the head only, never the body. A consumer that stops reading slows the transfer down
/// (the transport stops receiving) instead of letting unread bytes pile up in memory. SyncTables' ``CurlTransport``
/// conforms, and so does ``URLSessionTransport``.
///
/// ```swift
/// let transport = try CurlTransport()
/// var request = TransportRequest(method: .get, url: feedURL)
/// request.headers["Accept"] = "text/event-stream"
/// let response = try await transport.stream(request)
/// guard response.status == 200 else { return }
/// for try await chunk in response.body {
///     print("received \(chunk.count) bytes")
/// }
/// ```
public protocol StreamingHTTPTransport: HTTPTransport {
    /// Sends the request and returns once the response's head arrived, whatever its status; the body
    /// follows in ``StreamingResponse/body``.
    ///
    /// Dropping the body (the response and every iterator of it) before it ended, or cancelling the task that
    /// reads it, cancels the transfer promptly and closes its connection. When the connection breaks, the body
    /// ends by throwing ``TransportError``.
    ///
    /// - Throws: ``TransportError`` when no response head arrives (``TransportError/Kind/timedOut`` when
    ///   it takes longer than the request's timeout), `CancellationError` when the calling task is cancelled.
    func stream(_ request: TransportRequest) async throws -> StreamingResponse
}
