import Hummingbird
import SyncTablesCore

/// Answers the load balancer's probes ahead of everything else (no authentication, no protocol version), and
/// counts every other request as in flight for the drain:
///
/// - `GET /health`: 200 while the process serves at all.
/// - `GET /ready`: 200 when the database answers and the server's tables are in place and it is not shutting
///   down; 503 otherwise, with the reason in the body.
/// - `GET /metrics`: the Prometheus metrics, to anyone or with the metrics token as ``MetricsAccess`` says.
struct ProbeResponder<Next: HTTPResponder>: HTTPResponder where Next.Context == ServerRequestContext {
    typealias Context = ServerRequestContext

    let next: Next
    let storage: any TableStorage
    let drain: ServerDrain
    let metrics: ServerMetrics
    let metricsAccess: MetricsAccess

    /// How long `/ready` waits for the database before it answers 503.
    static var readinessTimeout: Duration { .seconds(2) }

    func respond(to request: Request, context: Context) async throws -> Response {
        let path = request.uri.path
        let isMetrics = path == "/metrics" && metricsAccess != .off
        guard path == "/health" || path == "/ready" || isMetrics else {
            return try await drain.serving { try await next.respond(to: request, context: context) }
        }
        guard request.method == .get || request.method == .head else {
            return ServerError(
                .methodNotAllowed, "The method \(request.method) is not allowed here; use GET.",
                headers: [.allow: "GET, HEAD"]
            ).response
        }
        if isMetrics { return metricsResponse(request) }
        if path == "/health" { return JSONResponse.json(Self.status("alive"), status: .ok) }
        return await readiness()
    }

    /// The metrics in the Prometheus text format, or 401 without the metrics token.
    private func metricsResponse(_ request: Request) -> Response {
        if case .token(let expected) = metricsAccess,
            !RequestAuthenticator.tokens(of: request).contains(where: { RequestAuthenticator.matches($0, expected) })
        {
            return AuthenticationFailure.wrongToken.error.response
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-cache"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
    }

    private func readiness() async -> Response {
        if drain.isDraining {
            return JSONResponse.json(Self.status("draining"), status: .serviceUnavailable)
        }
        do {
            try await Self.withTimeout(Self.readinessTimeout) { [storage] in try await storage.checkReady() }
            return JSONResponse.json(Self.status("ready"), status: .ok)
        } catch {
            var body = JSONObject(["status": .string("unavailable")])
            body["reason"] = .string(error is ReadinessTimeout ? "the database did not answer in time" : "\(error)")
            return JSONResponse.json(.object(body), status: .serviceUnavailable)
        }
    }

    private static func status(_ text: String) -> JSONValue {
        .object(JSONObject(["status": .string(text)]))
    }

    /// Runs `body`, throwing ``ReadinessTimeout`` when it takes longer than `limit`.
    private static func withTimeout(_ limit: Duration, _ body: @escaping @Sendable () async throws -> Void)
        async throws
    {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                throw ReadinessTimeout()
            }
            defer { group.cancelAll() }
            _ = try await group.next()
        }
    }

    private struct ReadinessTimeout: Error {}
}
