import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

// Like ScriptedHTTPServer.swift, this file does not import SyncTables: Hummingbird has its own `HTTPRequest`.

/// What a route of a ``StreamingHTTPServer`` answers: a status, headers, and a body the route writes piece by
/// piece, as slowly as it likes.
struct StreamedReply: Sendable {
    typealias Body = @Sendable (inout StreamWriter) async throws -> Void

    var status: Int
    var headers: [(name: String, value: String)]
    var body: Body

    init(status: Int = 200, headers: [(name: String, value: String)] = [], body: @escaping Body = { _ in }) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A `text/event-stream` reply.
    static func eventStream(_ body: @escaping Body) -> StreamedReply {
        StreamedReply(
            status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")], body: body)
    }

    /// A whole JSON reply.
    static func json(_ status: Int, _ text: String, headers: [(name: String, value: String)] = []) -> StreamedReply {
        StreamedReply(status: status, headers: [("Content-Type", "application/json")] + headers) { writer in
            try await writer.write(text)
        }
    }
}

/// The writing end of one streamed reply: counts what the server managed to write, and can drop the
/// connection in the middle of the body.
struct StreamWriter {
    fileprivate var writer: any ResponseBodyWriter
    fileprivate let channel: any Channel
    let probe: StreamProbe

    /// Writes bytes and waits until the connection took them (Hummingbird waits while the socket is full).
    mutating func write(_ bytes: [UInt8]) async throws {
        try await writer.write(ByteBuffer(bytes: bytes))
        probe.wrote(bytes.count)
    }

    /// Writes UTF-8 text.
    mutating func write(_ text: String) async throws {
        try await write(Array(text.utf8))
    }

    /// Writes one Server-Sent Event.
    mutating func event(_ type: String, id: String? = nil, data: String) async throws {
        var text = "event: \(type)\n"
        if let id { text += "id: \(id)\n" }
        text += "data: \(data)\n\n"
        try await write(text)
    }

    /// Closes the connection without ending the body: a connection lost in the middle of a response.
    func dropConnection() async throws {
        try await channel.close()
    }
}

/// What the server saw of its streamed replies: bytes written, connections that closed.
final class StreamProbe: @unchecked Sendable {
    private let lock = NSLock()
    private var written = 0
    private var opened = 0
    private var closed = 0

    /// Bytes the routes managed to write so far.
    var bytesWritten: Int { lock.withLock { written } }
    /// Replies whose route started writing.
    var openedStreams: Int { lock.withLock { opened } }
    /// Connections of those replies that have closed (by either side).
    var closedStreams: Int { lock.withLock { closed } }

    fileprivate func wrote(_ count: Int) {
        lock.withLock { written += count }
    }

    fileprivate func opened(_ channel: any Channel) {
        lock.withLock { opened += 1 }
        channel.closeFuture.whenComplete { _ in self.lock.withLock { self.closed += 1 } }
    }
}

/// A request context that keeps the request's channel, to watch it close and to drop it.
struct ChannelRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

/// A real Hummingbird HTTP/1.1 server on 127.0.0.1 and an ephemeral port whose routes stream their bodies:
/// the counterpart of the library's streaming transports.
final class StreamingHTTPServer: Sendable {
    typealias Route = @Sendable (ReceivedRequest) async throws -> StreamedReply

    let port: Int
    let probe: StreamProbe
    private let received: RecordedRequests
    private let stopping: StopFlag
    private let group: ServiceGroup
    private let runTask: Task<Void, any Error>

    /// The server's base URL, e.g. `http://127.0.0.1:51234`.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Every request received so far, in arrival order.
    var requests: [ReceivedRequest] { received.all }

    /// `true` once the test ends: endless routes stop writing.
    var isStopping: Bool { stopping.isSet }

    private init(
        port: Int, probe: StreamProbe, received: RecordedRequests, stopping: StopFlag, group: ServiceGroup,
        runTask: Task<Void, any Error>
    ) {
        self.port = port
        self.probe = probe
        self.received = received
        self.stopping = stopping
        self.group = group
        self.runTask = runTask
    }

    /// Starts a server whose `route` answers every request (given the server, for its stop flag), runs `body`
    /// against it, and stops it.
    static func with<Result>(
        _ route: @escaping @Sendable (ReceivedRequest, StopFlag) async throws -> StreamedReply,
        _ body: (StreamingHTTPServer) async throws -> Result
    ) async throws -> Result {
        let server = try await start(route)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    private static func start(
        _ route: @escaping @Sendable (ReceivedRequest, StopFlag) async throws -> StreamedReply
    ) async throws -> StreamingHTTPServer {
        let received = RecordedRequests()
        let stopping = StopFlag()
        let probe = StreamProbe()
        let responder = CallbackResponder<ChannelRequestContext> { request, context in
            var request = request
            let bodyBuffer = try await request.collectBody(upTo: 1024 * 1024)
            let uri = request.uri.string
            let questionMark = uri.firstIndex(of: "?")
            let recorded = ReceivedRequest(
                method: request.method.rawValue,
                rawPath: questionMark.map { String(uri[..<$0]) } ?? uri,
                rawQuery: questionMark.map { String(uri[uri.index(after: $0)...]) },
                headers: request.headers.map { (name: $0.name.rawName, value: $0.value) },
                body: Array(bodyBuffer.readableBytesView),
                clientPort: context.channel.remoteAddress?.port ?? -1
            )
            received.append(recorded)
            let reply = try await route(recorded, stopping)
            var fields = HTTPFields()
            for header in reply.headers {
                guard let name = HTTPField.Name(header.name) else { continue }
                fields.append(HTTPField(name: name, value: header.value))
            }
            let channel = context.channel
            let body = ResponseBody { writer in
                probe.opened(channel)
                var streamWriter = StreamWriter(writer: writer, channel: channel, probe: probe)
                try await reply.body(&streamWriter)
                try await streamWriter.writer.finish(nil)
            }
            return Response(status: HTTPResponse.Status(code: reply.status), headers: fields, body: body)
        }
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "StreamingHTTPServer")
        logger.logLevel = .critical
        let app = Application(
            responder: responder,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? -1)
                portContinuation.finish()
            },
            logger: logger
        )
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let runTask = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            runTask.cancel()
            throw ScriptedServerError.didNotStart
        }
        return StreamingHTTPServer(
            port: port, probe: probe, received: received, stopping: stopping, group: group, runTask: runTask)
    }

    /// Stops the server: endless routes see the stop flag and end.
    func stop() async {
        stopping.set()
        await group.triggerGracefulShutdown()
        _ = try? await runTask.value
    }
}

extension StopFlag {
    /// Sleeps `duration` in short steps, returning early once the flag is set (a route must never be cancelled
    /// halfway: NIO traps when a response writer is dropped unfinished).
    func sleep(for duration: Duration) async {
        let deadline = ContinuousClock.now + duration
        while ContinuousClock.now < deadline, !isSet {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits until `condition` holds, the flag is set, or `timeout` passed; `true` when the condition held.
    func wait(until condition: @Sendable () -> Bool, timeout: Duration = .seconds(10)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < deadline, !isSet else { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }
}

/// A number that tasks bump and the test (or a route) reads.
final class TestCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
