import Foundation
import Logging

extension SyncClient {
    /// Opens the server's change feed (`GET <changes path>`, Server-Sent Events): the events that tell which
    /// tables changed, so a client pulls when something changed instead of polling.
    ///
    /// The request carries the client's standard headers, decorator and 401 handling, with
    /// `Accept: text/event-stream`, `Last-Event-ID: <position>` when resuming and `?tables=a,b` (sorted) when
    /// limited to some tables. `request.timeout` (the client's) bounds the wait for the answer's head only.
    ///
    /// ```swift
    /// guard let feed = try await client.changeFeed(tables: ["notes"], after: lastPosition) else { return poll() }
    /// for try await event in feed {
    ///     if case .changed(let table, _) = event { try await pull(table) }
    ///     lastPosition = event.position ?? lastPosition
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - tables: The tables to hear about; `nil` or empty: every table.
    ///   - position: The position of the last event received, to resume after it; `nil` to start from now.
    ///   - logger: Where skipped events (unknown kinds, malformed data) are logged, at debug level.
    /// - Returns: The feed, or `nil` when the server offers none (its capabilities document has no `changes`)
    ///   or the client's transport cannot stream.
    /// - Throws: ``HTTPStatusError`` when the server answers other than 200 (401: credentials; 503: too many
    ///   feeds, with ``HTTPStatusError/retryAfter``), ``RemoteError`` for an invalid table name or an answer
    ///   that is not an event stream, ``TransportError`` when the server cannot be reached, `CancellationError`.
    @_spi(SyncTablesTools) public func changeFeed(
        tables: Set<String>? = nil,
        after position: String? = nil,
        logger: Logger = Logger(label: "SyncTables.ChangeFeed")
    ) async throws -> ChangeFeed? {
        guard let capability = try await capabilities().changes,
            let streamingTransport = transport as? any StreamingHTTPTransport
        else { return nil }
        var request = TransportRequest(
            method: .get, url: try changeFeedURL(capability.path, tables: tables), timeout: configuration.timeout)
        request.headers["Accept"] = "text/event-stream"
        if let position { request.headers["Last-Event-ID"] = position }
        let response = try await stream(request, through: streamingTransport)
        guard response.status == 200 else {
            let whole = try? await response.collected(upTo: Self.largestFeedErrorBody)
            throw ResponseReading.statusError(
                from: whole ?? TransportResponse(status: response.status, headers: response.headers))
        }
        let mediaType = response.headers["Content-Type"]?.split(separator: ";").first?.trimmingCharacters(
            in: .whitespaces)
        guard mediaType?.lowercased() == "text/event-stream" else {
            throw RemoteError.malformedResponse(
                status: 200, body: [], reason: "expected text/event-stream, got \(mediaType ?? "no Content-Type")")
        }
        return ChangeFeed(body: response.body, heartbeat: capability.heartbeat, logger: logger)
    }

    /// An error answer's body is read for its message up to this size; past it, the body is not kept.
    private static let largestFeedErrorBody = 64 * 1024

    /// `<base><path>[?tables=a,b]`, the names validated and sorted.
    private func changeFeedURL(_ path: String, tables: Set<String>?) throws(RemoteError) -> URL {
        guard let tables, !tables.isEmpty else { return try extensionURL(path) }
        for table in tables { try Self.validateTableName(table) }
        // Table names are letters, digits and "_": nothing in them needs percent-encoding.
        let text = try extensionURL(path).absoluteString + "?tables=" + tables.sorted().joined(separator: ",")
        guard let url = URL(string: text) else { throw .invalidURL(text) }
        return url
    }
}
