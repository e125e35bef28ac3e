import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
@_spi(SyncTablesTools) import SyncTablesCore

/// A real HTTP/1.1 client (SwiftNIO's codec) that reads a `text/event-stream` response as it arrives, one
/// server-sent event at a time: how a test watches a change feed.
///
/// ```swift
/// let feed = try await EventStreamClient.open(port: harness.port, path: "/sync/changes")
/// let ready = try await feed.next()   // event: ready
/// ```
final class EventStreamClient: Sendable {
    /// One event as the client parsed it.
    struct Event: Sendable, Hashable, CustomStringConvertible {
        var name: String
        var id: String?
        var data: String

        /// `data` as a JSON object.
        var object: JSONObject? {
            guard case .object(let object)? = try? JSONValue(parsing: Array(data.utf8)) else { return nil }
            return object
        }

        /// The `table` of a `change` event.
        var table: String? { object?.string("table") }

        var description: String { "\(name) \(id ?? "-") \(data)" }
    }

    private struct State {
        var head: HTTPResponseHead?
        var body: [UInt8] = []
        var pending: [UInt8] = []
        var events: [Event] = []
        var ended = false
    }

    private let state = LockedState(State())
    private let channel: any Channel

    private init(channel: any Channel) {
        self.channel = channel
    }

    /// Connects to `127.0.0.1:port`, sends `GET path` with `headers`, and waits for the response head.
    static func open(port: Int, path: String, headers: [String: String] = [:]) async throws -> EventStreamClient {
        let box = LockedState<EventStreamClient?>(nil)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(Reader(box: box))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        let client = EventStreamClient(channel: channel)
        box.withLock { $0 = client }
        var fields = HTTPHeaders([("Host", "127.0.0.1:\(port)"), ("Accept", "text/event-stream")])
        for (name, value) in headers { fields.replaceOrAdd(name: name, value: value) }
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: fields)
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        try await channel.writeAndFlush(HTTPClientRequestPart.end(nil)).get()
        try await client.waitUntil(timeout: .seconds(30)) { $0.head != nil || $0.ended }
        return client
    }

    /// The response status (0 when the connection ended before a response).
    var status: Int { state.withLock { Int($0.head?.status.code ?? 0) } }

    /// A response header.
    func header(_ name: String) -> String? {
        state.withLock { $0.head?.headers.first(name: name) }
    }

    /// The body received so far as text (for responses that are not event streams).
    func bodyText(timeout: Duration = .seconds(30)) async throws -> String {
        try await waitUntil(timeout: timeout) { $0.ended }
        return state.withLock { String(decoding: $0.body, as: UTF8.self) }
    }

    /// The next event; `nil` when the stream ended. Throws when none comes within `timeout`.
    func next(timeout: Duration = .seconds(30)) async throws -> Event? {
        try await waitUntil(timeout: timeout) { !$0.events.isEmpty || $0.ended }
        return state.withLock { state in state.events.isEmpty ? nil : state.events.removeFirst() }
    }

    /// Events up to and including the first that `last` accepts (skipping heartbeats unless asked to keep them);
    /// throws when the stream ends first or `timeout` passes.
    func events(
        through last: (Event) -> Bool, keepingHeartbeats: Bool = false, timeout: Duration = .seconds(60)
    ) async throws -> [Event] {
        let deadline = ContinuousClock.now + timeout
        var events: [Event] = []
        while true {
            guard let event = try await next(timeout: deadline - ContinuousClock.now) else {
                throw EventStreamError.endedBefore(events)
            }
            if event.name != "heartbeat" || keepingHeartbeats { events.append(event) }
            if last(event) { return events }
        }
    }

    /// The next `count` events, heartbeats left out; throws when the stream ends first or `timeout` passes.
    func events(count: Int, timeout: Duration = .seconds(60)) async throws -> [Event] {
        var seen = 0
        return try await events(
            through: { event in
                if event.name != "heartbeat" { seen += 1 }
                return seen == count
            }, timeout: timeout)
    }

    /// Waits until the server ends the stream; returns the events that came before the end (heartbeats left out).
    func eventsUntilEnd(timeout: Duration = .seconds(60)) async throws -> [Event] {
        try await waitUntil(timeout: timeout) { $0.ended }
        return state.withLock { state in
            defer { state.events.removeAll() }
            return state.events.filter { $0.name != "heartbeat" }
        }
    }

    /// Whether the server ended the stream (or the connection).
    var hasEnded: Bool { state.withLock { $0.ended } }

    /// Closes the connection.
    func close() {
        channel.close(promise: nil)
    }

    /// Polls (every 10 ms: a test client) until `condition` holds, or throws after `timeout`.
    private func waitUntil(timeout: Duration, _ condition: (State) -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while !state.withLock({ condition($0) }) {
            guard ContinuousClock.now < deadline else { throw EventStreamError.timedOut }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    fileprivate func received(_ part: HTTPClientResponsePart) {
        state.withLock { state in
            switch part {
            case .head(let head):
                state.head = head
            case .body(let buffer):
                state.body += buffer.readableBytesView
                state.pending += buffer.readableBytesView
                state.events += Self.parse(&state.pending)
            case .end:
                state.ended = true
            }
        }
    }

    fileprivate func ended() {
        state.withLock { $0.ended = true }
    }

    /// Takes the complete events (ended by a blank line) off the front of `pending`.
    private static func parse(_ pending: inout [UInt8]) -> [Event] {
        var events: [Event] = []
        let separator: [UInt8] = [10, 10]
        while let range = pending.firstRange(of: separator) {
            let text = String(decoding: pending[..<range.lowerBound], as: UTF8.self)
            pending.removeSubrange(..<range.upperBound)
            var event = Event(name: "message", id: nil, data: "")
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                let field = String(parts[0])
                let value = parts.count > 1 ? String(parts[1].drop { $0 == " " }) : ""
                switch field {
                case "event": event.name = value
                case "id": event.id = value
                case "data": event.data = value
                default: break
                }
            }
            events.append(event)
        }
        return events
    }

    /// Hands the response parts to the client.
    private final class Reader: ChannelInboundHandler, Sendable {
        typealias InboundIn = HTTPClientResponsePart

        let box: LockedState<EventStreamClient?>

        init(box: LockedState<EventStreamClient?>) {
            self.box = box
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let part = unwrapInboundIn(data)
            box.withLock { $0 }?.received(part)
        }

        func channelInactive(context: ChannelHandlerContext) {
            box.withLock { $0 }?.ended()
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}

enum EventStreamError: Error {
    case timedOut
    case endedBefore([EventStreamClient.Event])
}
