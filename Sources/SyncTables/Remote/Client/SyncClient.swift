import Foundation
@_spi(SyncTablesTools) import SyncTablesCore

/// The connection to a table-protocol server: its URL, the transport, the headers every request carries,
/// and the hooks that authenticate requests.
///
/// Every request carries `ZUMO-API-VERSION: 2.0.0`, `X-ZUMO-VERSION` and `User-Agent` naming SyncTables,
/// `Accept: application/json`, `Content-Type: application/json` when it has a body, `X-ZUMO-FEATURES` when
/// the caller names features, and `X-ZUMO-INSTALLATION-ID` when configured. Share one client (it is
/// `Sendable`) between a ``SyncContext``, ``RemoteTable``s and tasks.
///
/// ```swift
/// let client = SyncClient(
///     url: URL(string: "https://example.com")!,
///     requestDecorator: { request in request.headers["X-ZUMO-AUTH"] = await tokens.current },
///     onUnauthorized: { try await tokens.refresh() }   // true: retry once with the new token
/// )
/// let todos = RemoteTable<TodoItem>(client: client)
/// ```
public final class SyncClient: Sendable {
    /// Everything a ``SyncClient`` needs besides its transport.
    public struct Configuration: Sendable {
        /// The app's base URL; tables live under `<url>/tables/`.
        public var url: URL
        /// Extra headers for every request (for example `X-ZUMO-AUTH`); they replace standard headers of
        /// the same name.
        public var headers: [String: String]
        /// The per-install id sent as `X-ZUMO-INSTALLATION-ID`, or `nil` to send none.
        public var installationID: String?
        /// The time limit of each request.
        public var timeout: Duration
        /// Runs last on every request before it is sent (again on a retry), for example to add a fresh token.
        public var requestDecorator: (@Sendable (inout TransportRequest) async throws -> Void)?
        /// Called when a request comes back `401 Unauthorized`; return `true` after refreshing credentials to
        /// send the request once more, `false` to let the 401 surface as ``HTTPStatusError``.
        public var onUnauthorized: (@Sendable () async throws -> Bool)?

        /// Creates a configuration.
        public init(
            url: URL,
            headers: [String: String] = [:],
            installationID: String? = nil,
            timeout: Duration = .seconds(30),
            requestDecorator: (@Sendable (inout TransportRequest) async throws -> Void)? = nil,
            onUnauthorized: (@Sendable () async throws -> Bool)? = nil
        ) {
            self.url = url
            self.headers = headers
            self.installationID = installationID
            self.timeout = timeout
            self.requestDecorator = requestDecorator
            self.onUnauthorized = onUnauthorized
        }
    }

    /// The settings this client runs with.
    public let configuration: Configuration
    /// The transport that carries the requests.
    public let transport: any HTTPTransport
    /// The server's extensions, once discovered (``capabilities()``).
    let discoveredExtensions = LockedState<ServerExtensions?>(nil)

    /// Creates a client from a configuration; `transport` defaults to ``defaultTransport()``.
    public init(configuration: Configuration, transport: (any HTTPTransport)? = nil) {
        self.configuration = configuration
        self.transport = transport ?? Self.defaultTransport()
    }

    /// Creates a client for the server at `url`.
    ///
    /// - Parameters:
    ///   - url: The app's base URL.
    ///   - transport: The transport; by default ``CurlTransport`` on Linux and ``URLSessionTransport`` elsewhere.
    ///   - headers: Extra headers for every request.
    ///   - installationID: The per-install id sent as `X-ZUMO-INSTALLATION-ID`.
    ///   - requestDecorator: Runs last on every request before it is sent.
    ///   - onUnauthorized: Refreshes credentials after a 401; return `true` to retry once.
    ///   - timeout: The time limit of each request.
    public convenience init(
        url: URL,
        transport: (any HTTPTransport)? = nil,
        headers: [String: String] = [:],
        installationID: String? = nil,
        requestDecorator: (@Sendable (inout TransportRequest) async throws -> Void)? = nil,
        onUnauthorized: (@Sendable () async throws -> Bool)? = nil,
        timeout: Duration = .seconds(30)
    ) {
        let configuration = Configuration(
            url: url,
            headers: headers,
            installationID: installationID,
            timeout: timeout,
            requestDecorator: requestDecorator,
            onUnauthorized: onUnauthorized
        )
        self.init(configuration: configuration, transport: transport)
    }

    /// The platform's default transport: ``CurlTransport`` on Linux (falling back to
    /// ``URLSessionTransport`` if libcurl cannot initialise), ``URLSessionTransport`` elsewhere.
    public static func defaultTransport() -> any HTTPTransport {
        #if canImport(CCurl)
            if let curl = try? CurlTransport() { return curl }
        #endif
        return URLSessionTransport()
    }

    /// Sends a request with the client's standard headers, decorator and 401 handling, and returns the
    /// response whatever its status.
    ///
    /// Use it for custom APIs; table requests go through ``RemoteTable``.
    ///
    /// ```swift
    /// let url = client.configuration.url.appendingPathComponent("api/health")
    /// let response = try await client.send(TransportRequest(method: .get, url: url))
    /// ```
    ///
    /// - Throws: ``TransportError`` when no response arrives, `CancellationError` when the task is cancelled, and what
    ///   the ``Configuration-swift.struct/requestDecorator`` or ``Configuration-swift.struct/onUnauthorized`` closure
    ///   throws.
    public func send(_ request: TransportRequest, features: ZumoFeatures = []) async throws -> TransportResponse {
        try await exchange(request, features: features, status: \.status) { try await transport.send($0) }
    }

    /// Sends a request like ``send(_:features:)`` through a streaming transport and returns once the
    /// response's head arrived (a 401 answer that is retried is dropped, which cancels its transfer).
    package func stream(
        _ request: TransportRequest, through transport: any StreamingHTTPTransport, features: ZumoFeatures = []
    ) async throws -> StreamingResponse {
        try await exchange(request, features: features, status: \.status) { try await transport.stream($0) }
    }

    /// One request with the standard headers and the decorator, sent again once after a 401 when
    /// `onUnauthorized` refreshed the credentials.
    func exchange<Response>(
        _ request: TransportRequest,
        features: ZumoFeatures,
        status: (Response) -> Int,
        perform: (TransportRequest) async throws -> Response
    ) async throws -> Response {
        var hasRetried = false
        while true {
            var prepared = request
            prepared.headers = standardHeaders(for: request, features: features)
            if let decorate = configuration.requestDecorator {
                try await decorate(&prepared)
            }
            let response = try await perform(prepared)
            if status(response) == 401, !hasRetried, let onUnauthorized = configuration.onUnauthorized,
                try await onUnauthorized()
            {
                hasRetried = true
                continue
            }
            return response
        }
    }

    private func standardHeaders(for request: TransportRequest, features: ZumoFeatures) -> TransportHeaders {
        var headers: TransportHeaders = [
            "ZUMO-API-VERSION": "2.0.0",
            "X-ZUMO-VERSION": ClientIdentification.zumoVersion,
            "User-Agent": ClientIdentification.userAgent,
            "Accept": "application/json",
        ]
        if !features.isEmpty { headers["X-ZUMO-FEATURES"] = features.headerValue }
        if let installationID = configuration.installationID {
            headers["X-ZUMO-INSTALLATION-ID"] = installationID
        }
        if request.body != nil { headers["Content-Type"] = "application/json" }
        // The request's own fields replace standard ones by name but keep their own repetitions and order.
        for field in request.headers.fields { headers.remove(field.name) }
        for field in request.headers.fields { headers.add(name: field.name, value: field.value) }
        for (name, value) in configuration.headers.sorted(by: { $0.key < $1.key }) { headers[name] = value }
        return headers
    }
}
