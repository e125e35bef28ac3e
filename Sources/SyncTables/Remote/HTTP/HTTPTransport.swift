/// Something that sends one HTTP request and returns the whole response: the seam between ``SyncClient``
/// and the network.
///
/// Conformers return every response they receive, whatever its status; they throw ``TransportError``
/// when no response arrives, and `CancellationError` when the calling task is cancelled.
/// SyncTables ships ``CurlTransport`` (Linux) and ``URLSessionTransport`` (everywhere).
///
/// ```swift
/// struct LoggingTransport: HTTPTransport {
///     let next: any HTTPTransport
///     func send(_ request: TransportRequest) async throws -> TransportResponse {
///         print(request.method, request.url)
///         return try await next.send(request)
///     }
/// }
/// ```
public protocol HTTPTransport: Sendable {
    /// Sends the request and returns the response, whatever its status.
    ///
    /// - Throws: ``TransportError`` when no response arrives, `CancellationError` when the calling task is cancelled.
    func send(_ request: TransportRequest) async throws -> TransportResponse
}
