/// Why a transport got no usable HTTP response: the network failed, not the server's answer.
///
/// Task cancellation is not a `TransportError`: transports throw `CancellationError` for it.
///
/// ```swift
/// do { _ = try await transport.send(request) }
/// catch let error as TransportError where error.kind == .timedOut { retryLater() }
/// ```
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of transport failure.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// No connection could be made (refused, unreachable, unknown host).
        case connectionFailed
        /// The request's time limit passed before the response was complete.
        case timedOut
        /// The connection closed or broke before a complete response arrived.
        case connectionLost
        /// The peer answered with something that is not a valid HTTP response.
        case invalidResponse
        /// The request cannot be sent as given (for example an unsupported URL scheme).
        case invalidRequest
        /// The TLS handshake or certificate check failed.
        case secureConnectionFailed
        /// The transport abandoned the request without the calling task being cancelled
        /// (for example because the transport shut down).
        case cancelled
        /// Any other failure of the underlying HTTP stack.
        case other
    }

    /// What went wrong.
    public var kind: Kind
    /// The underlying stack's explanation, for logs.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// The kind and the message.
    public var description: String { "TransportError.\(kind.rawValue): \(message)" }
}
