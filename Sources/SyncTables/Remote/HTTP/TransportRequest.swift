import Foundation

/// One HTTP request as a transport sends it: method, absolute URL, headers, optional body and a time limit.
///
/// ```swift
/// let request = TransportRequest(method: .get, url: URL(string: "http://127.0.0.1:8080/tables/todo")!)
/// let response = try await transport.send(request)
/// ```
public struct TransportRequest: Sendable, Hashable {
    /// The request method.
    public var method: TransportMethod
    /// The absolute `http` or `https` URL, already percent-encoded.
    public var url: URL
    /// The header fields, in order.
    public var headers: TransportHeaders
    /// The body bytes, or `nil` for a request without a body (an empty array sends `Content-Length: 0`).
    public var body: [UInt8]?
    /// The longest the whole exchange may take, connecting included, before it fails with
    /// ``TransportError/Kind/timedOut``.
    public var timeout: Duration

    /// Creates a request.
    public init(
        method: TransportMethod,
        url: URL,
        headers: TransportHeaders = [:],
        body: [UInt8]? = nil,
        timeout: Duration = .seconds(30)
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

extension Duration {
    /// The duration in whole milliseconds, at least 1 so that a tiny positive limit never means "no limit".
    var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Swift.max(1, milliseconds)
    }

    /// The duration in seconds as a `TimeInterval`.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
