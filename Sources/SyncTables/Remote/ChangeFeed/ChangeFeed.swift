import Logging
@_spi(SyncTablesTools) import SyncTablesCore

/// A server's open change feed: the events it sends, in order, as ``ChangeFeedEvent``s.
///
/// Made by ``SyncClient/changeFeed(tables:after:logger:)``. Events of kinds it does not know, and change
/// events whose data names no valid table, are skipped. Iteration never ends normally: when the connection
/// ends, `next()` throws ``TransportError`` (``TransportError/Kind/connectionLost`` when the server closed
/// the feed). Dropping the feed (and its iterators) or cancelling the task reading it closes the connection.
///
/// ```swift
/// for try await event in feed {
///     switch event {
///     case .changed(let table, _): await pull(table)
///     case .reset: await pullEverything()
///     case .ready, .heartbeat: break
///     }
/// }
/// ```
@_spi(SyncTablesTools) public struct ChangeFeed: AsyncSequence, Sendable {
    /// The events of the feed.
    @_spi(SyncTablesTools) public typealias Element = ChangeFeedEvent

    /// The longest the server stays silent on this feed (its heartbeat interval): a feed quiet for much
    /// longer has lost its connection.
    @_spi(SyncTablesTools) public let heartbeat: Duration
    private let body: StreamingResponse.Body
    private let logger: Logger

    init(body: StreamingResponse.Body, heartbeat: Duration, logger: Logger) {
        self.body = body
        self.heartbeat = heartbeat
        self.logger = logger
    }

    /// An iterator over the feed's events.
    @_spi(SyncTablesTools) public func makeAsyncIterator() -> Iterator {
        Iterator(chunks: body.makeAsyncIterator(), logger: logger)
    }

    /// Reads the feed's body chunk by chunk and hands out its events one by one.
    @_spi(SyncTablesTools) public struct Iterator: AsyncIteratorProtocol {
        private var chunks: StreamingResponse.Body.Iterator
        private var parser = ServerSentEventParser()
        private var parsed: [ServerSentEvent] = []
        private var nextParsed = 0
        private let logger: Logger

        init(chunks: StreamingResponse.Body.Iterator, logger: Logger) {
            self.chunks = chunks
            self.logger = logger
        }

        /// The next event; throws when the connection ends.
        ///
        /// - Throws: ``TransportError`` when the connection ends or breaks, ``RemoteError`` when the server
        ///   sends an event too large to be one of the feed's, `CancellationError` when the task is cancelled.
        @_spi(SyncTablesTools) public mutating func next() async throws -> ChangeFeedEvent? {
            while true {
                while nextParsed < parsed.count {
                    let event = parsed[nextParsed]
                    nextParsed += 1
                    if let feedEvent = ChangeFeed.feedEvent(from: event, logger: logger) { return feedEvent }
                }
                parsed.removeAll(keepingCapacity: true)
                nextParsed = 0
                guard let chunk = try await chunks.next() else {
                    throw TransportError(.connectionLost, message: "The server ended the change feed.")
                }
                do {
                    parsed = try parser.consume(chunk)
                } catch {
                    throw RemoteError.malformedResponse(
                        status: 200, body: [], reason: "an event longer than \(error.limit) bytes")
                }
            }
        }
    }

    /// The feed event an SSE event stands for, or `nil` (logged) for one to skip.
    static func feedEvent(from event: ServerSentEvent, logger: Logger) -> ChangeFeedEvent? {
        let position = event.lastEventID.isEmpty ? nil : event.lastEventID
        switch event.type {
        case "change":
            guard case .object(let data)? = try? JSONValue(parsing: Array(event.data.utf8)),
                case .string(let table)? = data["table"], (try? SyncClient.validateTableName(table)) != nil
            else {
                logger.debug(
                    "Skipped a change event whose data names no valid table",
                    metadata: ["data": "\(event.data.prefix(200))"])
                return nil
            }
            return .changed(table: table, position: position)
        case "ready":
            return .ready(position: position)
        case "reset":
            logger.debug("The server reset the change feed", metadata: ["data": "\(event.data.prefix(200))"])
            return .reset(position: position)
        case "heartbeat":
            return .heartbeat
        default:
            logger.debug(
                "Skipped a change feed event of unknown kind", metadata: ["event": "\(event.type.prefix(100))"])
            return nil
        }
    }
}
