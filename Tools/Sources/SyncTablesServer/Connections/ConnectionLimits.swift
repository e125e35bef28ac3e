/// How long a connection may take at each step of a request, and how many connections are served at once, so
/// clients that open connections and send nothing, half a request or a body byte by byte cannot exhaust the
/// server's file descriptors.
///
/// A connection waiting for a request longer than ``idleTimeout`` is closed; a request whose head (request
/// line and headers) is not complete ``requestHeadTimeout`` after its first byte is answered 408 and closed; a
/// request whose body is not complete ``requestBodyTimeout`` after its head is closed. Beyond
/// ``maxConnections`` the server stops accepting until a connection closes (new ones wait in the listen
/// backlog).
///
/// ```swift
/// var configuration = SyncServerConfiguration(storage: .inMemory)
/// configuration.connectionLimits = ConnectionLimits(requestHeadTimeout: .seconds(5), maxConnections: 256)
/// ```
public struct ConnectionLimits: Sendable, Hashable {
    /// How long an open connection may wait for its next request (also before the first one).
    public var idleTimeout: Duration
    /// How long a request may take from its first byte to the end of its headers.
    public var requestHeadTimeout: Duration
    /// How long a request may take from the end of its headers to the end of its body (for a blob upload: the
    /// longest wait for its next part).
    public var requestBodyTimeout: Duration
    /// The most connections served at the same time.
    public var maxConnections: Int

    /// Creates limits; the defaults suit a server on the open internet behind no proxy.
    public init(
        idleTimeout: Duration = .seconds(60),
        requestHeadTimeout: Duration = .seconds(10),
        requestBodyTimeout: Duration = .seconds(30),
        maxConnections: Int = 1024
    ) {
        self.idleTimeout = idleTimeout
        self.requestHeadTimeout = requestHeadTimeout
        self.requestBodyTimeout = requestBodyTimeout
        self.maxConnections = maxConnections
    }
}
