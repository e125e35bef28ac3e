import HTTPTypes
import Hummingbird
@_spi(SyncTablesTools) import SyncTables
import SyncTablesServer

/// Puts ``TestControls`` in front of a server's routes: serves `/__test`, records every other request and
/// plays the scripted faults on it.
struct TestControlsMiddleware: ServerMiddleware {
    /// The name it is installed under in a server's configuration.
    static let name = "test-controls"

    let controls: TestControls

    func handle(_ request: MiddlewareRequest, next: () async throws -> RequestOutcome) async throws -> RequestOutcome {
        let path = request.path
        if path == "/__test" || path.hasPrefix("/__test/") {
            let routes = TestControlRoutes(controls: controls)
            return .respond(try await routes.respond(request.request, path: path, body: try request.body()))
        }
        await controls.record(Self.record(request))
        switch await controls.fault(method: request.request.method.rawValue, path: path) {
        case .respond(let status, let payload, let extraHeaders)?:
            let body = payload ?? .object(JSONObject(["error": .string("Injected fault")]))
            var fields = HTTPFields()
            for (name, value) in extraHeaders {
                if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
            }
            return .respond(JSONResponse.json(body, status: HTTPResponse.Status(code: status), headers: fields))
        case .dropConnection?:
            return .drop
        case .delay(let milliseconds)?:
            try await Task.sleep(for: .milliseconds(milliseconds))
            return try await next()
        case .lostResponse?:
            // The request runs (its write is committed); only its answer is lost.
            _ = try await next()
            return .drop
        case nil:
            return try await next()
        }
    }

    private static func record(_ read: MiddlewareRequest) -> RecordedRequest {
        let request = read.request
        var headers: [String: String] = [:]
        // HTTP/1 `Host` arrives as the request's authority, not as a header field.
        if let authority = request.head.authority { headers["host"] = authority }
        for field in request.headers {
            let name = field.name.canonicalName
            headers[name] = headers[name].map { $0 + ", " + field.value } ?? field.value
        }
        let body = (try? read.body()) ?? []
        return RecordedRequest(
            method: request.method.rawValue,
            path: request.uri.path,
            rawQuery: request.uri.query,
            query: read.queryParameters.map { .init(name: $0.name, value: $0.value) },
            headers: headers,
            body: body.isEmpty ? nil : String(decoding: body, as: UTF8.self)
        )
    }
}
