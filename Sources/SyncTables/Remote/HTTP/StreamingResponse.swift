/// One HTTP response whose body is still arriving: status code, headers, and the body as a sequence of chunks.
///
/// A ``StreamingHTTPTransport`` keeps only a bounded number of unread bytes, so a slow reader slows the
/// transfer instead of filling memory; see ``Body`` for how reading ends.
///
/// ```swift
/// func firstMegabyte(_ request: TransportRequest) async throws -> Int {
///     let response = try await transport.stream(request)
///     var received = 0
///     for try await chunk in response.body {
///         received += chunk.count
///         if received > 1_000_000 { break }
///     }
///     return received  // the response goes away here, and with it the transfer
/// }
/// ```
public struct StreamingResponse: Sendable {
    /// The status code, for example `200`.
    public var status: Int
    /// The header fields, in the order received when the transport knows it.
    public var headers: TransportHeaders
    /// The body, chunk by chunk as the network delivers it.
    public var body: Body

    /// Creates a response.
    public init(status: Int, headers: TransportHeaders = [:], body: Body) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// `true` for a 2xx status.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// The whole rest of the body, collected into one response.
    ///
    /// ```swift
    /// let response = try await transport.stream(request)
    /// if response.status != 200 { throw statusError(try await response.collected(upTo: 64 * 1024)) }
    /// ```
    ///
    /// - Throws: ``TransportError`` with ``TransportError/Kind/invalidResponse`` when the body is longer than
    ///   `limit` bytes, what reading the body throws (``TransportError`` when the connection drops), and
    ///   `CancellationError` when the task is cancelled.
    public func collected(upTo limit: Int) async throws -> TransportResponse {
        var bytes: [UInt8] = []
        for try await chunk in body {
            guard bytes.count + chunk.count <= limit else {
                throw TransportError(.invalidResponse, message: "The response body is longer than \(limit) bytes.")
            }
            bytes.append(contentsOf: chunk)
        }
        return TransportResponse(status: status, headers: headers, body: bytes)
    }
}
