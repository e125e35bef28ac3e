/// One HTTP response as a transport received it: status code, headers and the whole body.
///
/// ```swift
/// let response = try await transport.send(request)
/// if response.status == 201, let tag = response.headers["ETag"] { print(tag) }
/// ```
public struct TransportResponse: Sendable, Hashable {
    /// The status code, for example `200`.
    public var status: Int
    /// The header fields, in the order received when the transport knows it.
    public var headers: TransportHeaders
    /// The body bytes (empty when there is none).
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: TransportHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// `true` for a 2xx status.
    public var isSuccess: Bool { (200..<300).contains(status) }
}
