import Hummingbird

/// The outermost responder: gives every request its id (in the logger's metadata for every line logged about
/// it, and in the response's `X-Request-Id`), and counts it and its duration in the server's metrics.
struct ObservingResponder<Next: HTTPResponder>: HTTPResponder where Next.Context == ServerRequestContext {
    typealias Context = ServerRequestContext

    let next: Next
    let metrics: ServerMetrics

    func respond(to request: Request, context: Context) async throws -> Response {
        var context = context
        let id = RequestID.of(request)
        context.logger[metadataKey: RequestID.metadataKey] = .string(id)
        let started = ContinuousClock.now
        do {
            var response = try await next.respond(to: request, context: context)
            response.headers[RequestID.header] = id
            metrics.recordRequest(
                method: request.method, status: response.status, duration: ContinuousClock.now - started)
            return response
        } catch {
            metrics.recordRequest(
                method: request.method, status: .internalServerError, duration: ContinuousClock.now - started)
            throw error
        }
    }
}
