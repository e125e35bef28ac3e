import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ServiceLifecycle

// This file deliberately does not import SyncTables: Hummingbird exports types named `HTTPRequest` and
// `HTTPResponse` too, so the server side of the tests speaks only in the plain types below.

/// A request as the test server received it.
struct ReceivedRequest: Sendable {
    /// The method token, e.g. "PATCH".
    var method: String
    /// The path exactly as sent (still percent-encoded).
    var rawPath: String
    /// The query string exactly as sent (still percent-encoded), without "?".
    var rawQuery: String?
    /// The header fields in order, names as sent.
    var headers: [(name: String, value: String)]
    /// The body bytes.
    var body: [UInt8]
    /// The client's port: requests arriving over one kept-alive connection share it.
    var clientPort: Int

    /// The first value of a header (any case).
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The body as UTF-8 text.
    var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// What the test server answers.
struct ScriptedReply: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]
    /// How long to wait before answering (the wait ends early when the server stops).
    var delay: Duration?

    init(status: Int = 200, headers: [(name: String, value: String)] = [], body: String = "", delay: Duration? = nil) {
        self.status = status
        self.headers = headers
        self.body = Array(body.utf8)
        self.delay = delay
    }

    /// A JSON reply.
    static func json(_ status: Int, _ body: String, headers: [(name: String, value: String)] = []) -> ScriptedReply {
        ScriptedReply(status: status, headers: [("Content-Type", "application/json")] + headers, body: body)
    }
}

/// A request context that remembers which client port the request came from.
struct PeerRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let clientPort: Int

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientPort = source.channel.remoteAddress?.port ?? -1
    }
}

/// A real Hummingbird HTTP/1.1 server on 127.0.0.1 and an ephemeral port that records every request and
/// answers each with a scripted reply.
final class ScriptedHTTPServer: Sendable {
    typealias Script = @Sendable (ReceivedRequest) async throws -> ScriptedReply

    let port: Int
    private let received: RecordedRequests
    private let stopping: StopFlag
    private let group: ServiceGroup
    private let runTask: Task<Void, any Error>

    /// The server's base URL, e.g. `http://127.0.0.1:51234`.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Every request received so far, in arrival order.
    var requests: [ReceivedRequest] { received.all }

    private init(
        port: Int,
        received: RecordedRequests,
        stopping: StopFlag,
        group: ServiceGroup,
        runTask: Task<Void, any Error>
    ) {
        self.port = port
        self.received = received
        self.stopping = stopping
        self.group = group
        self.runTask = runTask
    }

    /// Starts a server, runs `body` against it, and stops it.
    static func with<Result>(
        _ script: @escaping Script,
        _ body: (ScriptedHTTPServer) async throws -> Result
    ) async throws -> Result {
        let server = try await start(script)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    static func start(_ script: @escaping Script) async throws -> ScriptedHTTPServer {
        let received = RecordedRequests()
        let stopping = StopFlag()
        let responder = CallbackResponder<PeerRequestContext> { request, context in
            var request = request
            let bodyBuffer = try await request.collectBody(upTo: 64 * 1024 * 1024)
            let headers = request.headers.map { (name: $0.name.rawName, value: $0.value) }
            let uri = request.uri.string
            let questionMark = uri.firstIndex(of: "?")
            let recorded = ReceivedRequest(
                method: request.method.rawValue,
                rawPath: questionMark.map { String(uri[..<$0]) } ?? uri,
                rawQuery: questionMark.map { String(uri[uri.index(after: $0)...]) },
                headers: headers,
                body: Array(bodyBuffer.readableBytesView),
                clientPort: context.clientPort
            )
            received.append(recorded)
            let reply = try await script(recorded)
            if let delay = reply.delay {
                // Sleep in short steps so that stopping the server ends the wait; the handler itself is never
                // cancelled (NIO traps when a response writer is dropped unfinished).
                let deadline = ContinuousClock.now + delay
                while ContinuousClock.now < deadline, !stopping.isSet {
                    try? await Task.sleep(for: .milliseconds(10))
                }
            }
            var fields = HTTPFields()
            for header in reply.headers {
                guard let name = HTTPField.Name(header.name) else { continue }
                fields.append(HTTPField(name: name, value: header.value))
            }
            return Response(
                status: HTTPResponse.Status(code: reply.status),
                headers: fields,
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: reply.body))
            )
        }
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "ScriptedHTTPServer")
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
        return ScriptedHTTPServer(port: port, received: received, stopping: stopping, group: group, runTask: runTask)
    }

    /// Stops the server gracefully; delayed replies end their wait at once.
    func stop() async {
        stopping.set()
        await group.triggerGracefulShutdown()
        _ = try? await runTask.value
    }
}

enum ScriptedServerError: Error {
    case didNotStart
}

/// A flag the test sets once to tell delayed replies to stop waiting.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() {
        lock.withLock { value = true }
    }

    var isSet: Bool { lock.withLock { value } }
}

/// The requests a server received, shared between its connection tasks and the test.
final class RecordedRequests: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [ReceivedRequest] = []

    func append(_ request: ReceivedRequest) {
        lock.withLock { storage.append(request) }
    }

    var all: [ReceivedRequest] { lock.withLock { storage } }
}
