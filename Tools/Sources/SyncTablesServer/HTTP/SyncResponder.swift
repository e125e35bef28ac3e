import HTTPTypes
import Hummingbird
import Logging
import SyncTables

/// Answers every request: body limit, request log, scripted faults, auth, version check, then the table routes.
struct SyncResponder: HTTPResponder {
    typealias Context = ServerRequestContext

    let configuration: SyncServerConfiguration
    let tables: TableService
    let controls: TestControls?

    func respond(to request: Request, context: Context) async throws -> Response {
        let started = ContinuousClock.now
        let outcome = await handleOrRespond(request, context: context)
        let response: Response
        switch outcome {
        case .respond(let answer):
            response = answer
        case .drop:
            // Closing the channel before the framework writes means the client reads EOF instead of a response.
            try? await context.channel.close()
            response = Response(status: .internalServerError)
        }
        if configuration.logRequests {
            let elapsed = ContinuousClock.now - started
            let status = outcome.isDrop ? "dropped" : "\(response.status.code)"
            let target = request.uri.query.map { "\(request.uri.path)?\($0)" } ?? request.uri.path
            context.logger.info("\(request.method) \(target) \(status) \(elapsed)")
        }
        return response
    }

    /// The outcome of a request, failures answered with their error response.
    func handleOrRespond(_ request: Request, context: Context) async -> Outcome {
        do {
            return try await handle(request, context: context)
        } catch {
            return .respond(Self.response(for: error, logger: context.logger))
        }
    }

    /// What happens to a request: a response, or the connection closed without one.
    enum Outcome {
        case respond(Response)
        case drop

        var isDrop: Bool {
            if case .drop = self { return true }
            return false
        }
    }

    private func handle(_ request: Request, context: Context) async throws -> Outcome {
        let path = request.uri.path
        let query = try QueryString(raw: request.uri.query)
        let bodyResult: Result<[UInt8], any Error>
        do {
            bodyResult = .success(try await RequestBodyReader.collect(request, limit: configuration.maxBodySize))
        } catch {
            bodyResult = .failure(error)
        }
        let body = (try? bodyResult.get()) ?? []

        if let controls, path == "/__test" || path.hasPrefix("/__test/") {
            let routes = TestControlRoutes(controls: controls)
            return .respond(try await routes.respond(request, path: path, body: try bodyResult.get()))
        }

        var lostResponse = false
        if let controls {
            await controls.record(Self.record(request, query: query, body: body))
            switch await controls.fault(method: request.method.rawValue, path: path) {
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
            case .lostResponse?:
                lostResponse = true
            case nil:
                break
            }
        }

        if let outcome = try await extensionOutcome(
            request, path: path, query: query, body: try bodyResult.get(), context: context)
        {
            return lostResponse ? .drop : outcome
        }

        // Next-page links use the Host header; a request without one gets the address it reached.
        let local = context.channel.localAddress
        let localAuthority = "\(local?.ipAddress ?? configuration.host):\(local?.port ?? configuration.port)"
        let response = try await route(
            request,
            path: path,
            query: query,
            body: try bodyResult.get(),
            localAuthority: localAuthority
        )
        return lostResponse ? .drop : .respond(response)
    }

    private func route(
        _ request: Request,
        path: String,
        query: QueryString,
        body: [UInt8],
        localAuthority: String
    ) async throws -> Response {
        if let token = configuration.authToken {
            try Authorization.check(request, token: token)
        }
        let components = try path.split(separator: "/", omittingEmptySubsequences: true).map {
            component throws(ServerError) in try QueryString.percentDecode(component)
        }
        guard components.first == "tables", (2...3).contains(components.count) else {
            throw ServerError(.notFound, "Not found: \(path)")
        }
        if request.method != .options {
            try APIVersion.check(request, query: query)
        }
        let table = try TableName.validated(components[1])
        let routes = TableRoutes(configuration: configuration, tables: tables, localAuthority: localAuthority)
        if components.count == 2 {
            return try await routes.collection(request, table: table, query: query, body: body)
        }
        let id = try ItemBody.validatedID(components[2])
        return try await routes.item(request, table: table, id: id, query: query, body: body)
    }

    private static func record(_ request: Request, query: QueryString, body: [UInt8]) -> RecordedRequest {
        var headers: [String: String] = [:]
        // HTTP/1 `Host` arrives as the request's authority, not as a header field.
        if let authority = request.head.authority { headers["host"] = authority }
        for field in request.headers {
            let name = field.name.canonicalName
            headers[name] = headers[name].map { $0 + ", " + field.value } ?? field.value
        }
        return RecordedRequest(
            method: request.method.rawValue,
            path: request.uri.path,
            rawQuery: request.uri.query,
            query: query.parameters.map { .init(name: $0.name, value: $0.value) },
            headers: headers,
            body: body.isEmpty ? nil : String(decoding: body, as: UTF8.self)
        )
    }

    /// Maps any failure to a JSON error response; only unexpected failures become 500.
    static func response(for error: any Error, logger: Logger) -> Response {
        switch error {
        case let error as ServerError:
            return error.response
        case StoreError.invalidTableName(let name):
            return JSONResponse.error("Invalid table name '\(name)'.", status: .badRequest)
        case StoreError.missingID:
            return JSONResponse.error("The item has no valid id.", status: .badRequest)
        case StoreError.busy:
            // Another connection held the SQLite file's write lock past the busy timeout: nothing changed, and
            // the same request can succeed later.
            return JSONResponse.error("The database is busy; try again.", status: .serviceUnavailable)
        default:
            logger.error("Request failed: \(String(describing: error))")
            return JSONResponse.error("The server failed to process the request.", status: .internalServerError)
        }
    }
}
