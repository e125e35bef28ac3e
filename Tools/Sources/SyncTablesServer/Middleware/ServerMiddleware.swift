import Hummingbird
@_spi(SyncTablesTools) import SyncTables

/// Something a ``SyncServer`` runs around every request before its own routes (the probes `/health` and
/// `/ready` aside), ahead of authentication and the version check, and around each operation of a batch: it
/// may answer the request itself, close the connection without an answer, or let the server answer through
/// `next`, doing something of its own before or after.
///
/// The hook through which `SyncTablesServerTesting` installs its test controls (see
/// ``SyncServerConfiguration/middleware``); the server itself installs none.
package protocol ServerMiddleware: Sendable {
    /// What happens to `request`: the outcome of `next` (the next middleware, then the server's routes), or one
    /// of its own.
    func handle(_ request: MiddlewareRequest, next: () async throws -> RequestOutcome) async throws -> RequestOutcome
}

/// What happens to a request: a response, or the connection closed without one.
package enum RequestOutcome: Sendable {
    /// Answer with this response.
    case respond(Response)
    /// Close the connection before any response is written: the client reads the end of the stream.
    case drop

    /// Whether the connection closes without an answer.
    package var isDrop: Bool {
        if case .drop = self { return true }
        return false
    }
}

/// A request as middleware sees it: its body read whole (within the server's size limit) and its query
/// decoded.
package struct MiddlewareRequest: Sendable {
    /// The request as received (its method, URI and header fields; its body is read already).
    package let request: Request
    /// The path as sent, still percent-encoded, e.g. `/tables/todo/a`.
    package let path: String
    /// The query parameters, percent-decoded, in request order.
    package let queryParameters: [(name: String, value: String)]
    private let bodyResult: Result<[UInt8], any Error>

    init(request: Request, path: String, query: QueryString, body: Result<[UInt8], any Error>) {
        self.request = request
        self.path = path
        self.queryParameters = query.parameters.map { ($0.name, $0.value) }
        self.bodyResult = body
    }

    /// The body; throws what reading it threw (a body over the size limit is a 413).
    package func body() throws -> [UInt8] {
        try bodyResult.get()
    }
}

/// Makes a ``ServerMiddleware`` for a server being created, from what middleware may reach of it.
package struct ServerMiddlewareInstaller: Sendable {
    /// Names the middleware, so the module that installs it can tell whether it is installed already.
    package var name: String
    /// Makes the middleware for one server.
    package var make: @Sendable (ServerTables) -> any ServerMiddleware

    /// An installer of the middleware `make` makes, under `name`.
    package init(name: String, make: @escaping @Sendable (ServerTables) -> any ServerMiddleware) {
        self.name = name
        self.make = make
    }
}

/// What middleware may do to a server's tables beyond the protocol: store rows as given, empty every table,
/// and end the open change feeds.
package struct ServerTables: Sendable {
    let service: TableService
    let changes: ChangeHub?

    /// Stores rows exactly as given, including system properties; missing ones are filled in. Returns the
    /// stored rows.
    package func seed(table: String, items: [JSONObject]) async throws -> [JSONObject] {
        try await service.seed(table: try TableName.validated(table), items: items)
    }

    /// Deletes every row of every table.
    package func removeAllRows() async throws {
        try await service.removeAllRows()
    }

    /// Ends every open change feed at once by closing its connection, as a network failure would; returns how
    /// many were open. New feeds may open right away.
    @discardableResult
    package func dropChangeFeeds() -> Int {
        changes?.dropAllFeeds() ?? 0
    }
}
