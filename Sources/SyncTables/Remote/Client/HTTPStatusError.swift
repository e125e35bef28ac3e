/// The server answered a table request with a status other than 2xx.
///
/// Carries what a caller needs to act: the status, the raw body, the server's message (`{"error": …}` from
/// Node servers or `{"message": …}` from ASP.NET ones) and, for conflicts (409/412) and any other error
/// whose body is an item, the server's copy of the item with its `version` taken from the `ETag` header.
///
/// ```swift
/// do { _ = try await todos.update(item) }
/// catch let error as HTTPStatusError where error.isConflict { merge(error.serverItem) }
/// ```
public struct HTTPStatusError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status code, for example `412`.
    public var status: Int
    /// The response body as received.
    public var body: [UInt8]
    /// The server's error message, when the body holds one.
    public var message: String?
    /// The server's item, when the body is a JSON object with a string `id` (as in 409 and 412 replies).
    public var serverItem: JSONObject?
    /// How long the server asked the client to wait before trying again (`Retry-After` in seconds, as
    /// 429 and 503 replies send it), when it said.
    public var retryAfter: Duration?

    /// Creates an error.
    public init(
        status: Int,
        body: [UInt8] = [],
        message: String? = nil,
        serverItem: JSONObject? = nil,
        retryAfter: Duration? = nil
    ) {
        self.status = status
        self.body = body
        self.message = message
        self.serverItem = serverItem
        self.retryAfter = retryAfter
    }

    /// `true` for `409 Conflict` and `412 Precondition Failed`: the server holds a different version.
    public var isConflict: Bool { status == 409 || status == 412 }

    /// `true` for `401 Unauthorized`.
    public var isUnauthorized: Bool { status == 401 }

    /// The status and the server's message.
    public var description: String {
        "HTTP \(status)" + (message.map { ": \($0)" } ?? "")
    }
}
