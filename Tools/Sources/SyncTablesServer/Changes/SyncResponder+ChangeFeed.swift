import HTTPTypes
import Hummingbird
import NIOCore

// `GET /sync/changes`: the change feed, a `text/event-stream` of the writes the caller may see (see
// <doc:ChangeFeed>). Authenticated and rate-limited as the table requests are; the response streams until the
// client goes away, the hub drops the feed, or the server drains.

extension SyncResponder {
    /// `Last-Event-ID`.
    static let lastEventIDField = HTTPField.Name("Last-Event-ID")!
    /// `X-Accel-Buffering`, which tells nginx-style proxies not to buffer the stream.
    static let accelBufferingField = HTTPField.Name("X-Accel-Buffering")!

    /// Opens a change feed for the caller; 503 with `Retry-After` when too many are open or the server drains.
    func changeFeed(_ request: Request, query: QueryString, hub: ChangeHub, context: Context) async throws
        -> RequestOutcome
    {
        let caller = try await authenticate(request, context: context)
        guard request.method == .get else { throw methodNotAllowed(request, allowed: "GET") }
        let audience = try ChangeAudience(caller: caller, requested: try Self.requestedTables(query), service: tables)
        let connection = context.channel
        let subscription: ChangeSubscription
        do {
            subscription = try hub.subscribe(
                audience, resumingAfter: request.headers[Self.lastEventIDField],
                closeConnection: { connection.close(promise: nil) })
        } catch {
            let message =
                switch error {
                case .tooManyFeeds: "Too many change feeds are open; retry later."
                case .draining: "The server is shutting down; reconnect (to another instance)."
                }
            let seconds = ChangeFeedSettings.retryAfterSeconds
            throw ServerError(.serviceUnavailable, message, headers: [.retryAfter: String(seconds)])
        }
        // A client that goes away while its feed is idle frees the feed at once, not at the next heartbeat.
        connection.closeFuture.whenComplete { _ in subscription.cancel() }
        let watcher = FeedDisconnectWatcher()
        try? await connection.pipeline.addHandler(watcher, position: .first)
        let headers: HTTPFields = [
            .contentType: "text/event-stream", .cacheControl: "no-store", Self.accelBufferingField: "no",
        ]
        let stream = ChangeFeedStream(subscription: subscription, metrics: metrics) {
            connection.pipeline.removeHandler(watcher, promise: nil)
        }
        return .respond(Response(status: .ok, headers: headers, body: stream.body))
    }

    /// The tables of `tables=a,b`, each a valid table name (else 400); `nil` without the parameter.
    static func requestedTables(_ query: QueryString) throws(ServerError) -> [String]? {
        guard let list = query.value("tables") else { return nil }
        return try list.split(separator: ",", omittingEmptySubsequences: false).map { name throws(ServerError) in
            try TableName.validated(String(name))
        }
    }
}
