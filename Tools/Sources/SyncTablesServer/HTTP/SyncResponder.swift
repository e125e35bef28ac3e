import HTTPTypes
import Hummingbird
import Logging
import SyncTables

/// Answers every request: identity and rate limit, body limit, middleware (the test controls, when
/// installed), auth, version check, then the table routes.
struct SyncResponder: HTTPResponder {
    typealias Context = ServerRequestContext

    let configuration: SyncServerConfiguration
    let tables: TableService
    let idempotency: IdempotentWrites
    let middleware: [any ServerMiddleware]
    let authenticator: RequestAuthenticator
    let rateLimiter: RateLimiter?
    let metrics: ServerMetrics
    /// The change feeds' hub; `nil` when feeds are off.
    let changes: ChangeHub?
    /// Where blobs are kept; `nil` when the server offers none.
    let blobs: BlobService?

    func respond(to request: Request, context: Context) async throws -> Response {
        let started = ContinuousClock.now
        var context = context
        let identity: Result<Caller, AuthenticationFailure>
        do {
            identity = .success(try await authenticator.authenticate(request))
        } catch {
            identity = .failure(error)
        }
        context.identity = identity
        let outcome: RequestOutcome
        if let wait = rateLimiter?.take(for: rateLimitKey(identity, context: context)) {
            metrics.recordRateLimited()
            outcome = .respond(Self.tooManyRequests(retryAfter: wait))
        } else {
            outcome = await handleOrRespond(request, context: context)
        }
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
    func handleOrRespond(_ request: Request, context: Context) async -> RequestOutcome {
        do {
            return try await handle(request, context: context)
        } catch {
            return .respond(Self.response(for: error, logger: context.logger))
        }
    }

    private func handle(_ request: Request, context: Context) async throws -> RequestOutcome {
        let query = try QueryString(raw: request.uri.query)
        // Blob uploads stream to storage: routed before the body is collected, past the test middleware.
        if let blobs, BlobSettings.isBlobPath(request.uri.path) {
            await blobs.sweepIfDue()  // bounded, and at most once a minute
            return try await blobOutcome(request, path: request.uri.path, blobs: blobs, context: context)
        }
        let body: Result<[UInt8], any Error>
        do {
            body = .success(try await RequestBodyReader.collect(request, limit: configuration.maxBodySize))
        } catch {
            body = .failure(error)
        }
        let read = MiddlewareRequest(request: request, path: request.uri.path, query: query, body: body)
        return try await outcome(of: read, query: query, through: middleware[...], context: context)
    }

    /// Runs `request` through `middleware`, in order, then through the server's own routes.
    private func outcome(
        of request: MiddlewareRequest, query: QueryString, through middleware: ArraySlice<any ServerMiddleware>,
        context: Context
    ) async throws -> RequestOutcome {
        guard let first = middleware.first else { return try await serve(request, query: query, context: context) }
        return try await first.handle(request) {
            try await outcome(of: request, query: query, through: middleware.dropFirst(), context: context)
        }
    }

    /// The server's own answer: the extension paths, then the table routes.
    private func serve(_ request: MiddlewareRequest, query: QueryString, context: Context) async throws
        -> RequestOutcome
    {
        let path = request.path
        if let outcome = try await extensionOutcome(
            request.request, path: path, query: query, body: try request.body(), context: context)
        {
            return outcome
        }

        // Next-page links use the Host header; a request without one gets the address it reached.
        let local = context.channel.localAddress
        let localAuthority = "\(local?.ipAddress ?? configuration.host):\(local?.port ?? configuration.port)"
        let response = try await route(
            request.request,
            path: path,
            query: query,
            body: try request.body(),
            localAuthority: localAuthority,
            context: context
        )
        return .respond(response)
    }

    private func route(
        _ request: Request,
        path: String,
        query: QueryString,
        body: [UInt8],
        localAuthority: String,
        context: Context
    ) async throws -> Response {
        let caller = try await authenticate(request, context: context)
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
        let routes = TableRoutes(
            configuration: configuration, tables: tables, idempotency: idempotency, caller: caller,
            localAuthority: localAuthority)
        if components.count == 2 {
            return try await routes.collection(request, table: table, query: query, body: body)
        }
        let id = try ItemBody.validatedID(components[2])
        return try await routes.item(request, table: table, id: id, query: query, body: body)
    }

    /// The caller a request's credentials prove (as worked out when it arrived); throws 401 when they prove none.
    func authenticate(_ request: Request, context: Context) async throws -> Caller {
        let identity: Result<Caller, AuthenticationFailure>
        if let known = context.identity {
            identity = known
        } else {
            do {
                identity = .success(try await authenticator.authenticate(request))
            } catch {
                identity = .failure(error)
            }
        }
        switch identity {
        case .success(let caller):
            return caller
        case .failure(let failure):
            metrics.recordAuthenticationFailure(failure)
            context.logger.debug("Unauthorized", metadata: ["reason": "\(failure.rawValue)"])
            throw failure.error
        }
    }

    /// Whose bucket a request is taken from: its subject's, else its client address's.
    private func rateLimitKey(_ identity: Result<Caller, AuthenticationFailure>, context: Context) -> String {
        if case .success(let caller) = identity, let subject = caller.subject { return "subject:" + subject }
        return "address:" + (context.channel.remoteAddress?.ipAddress ?? "unknown")
    }

    /// The 429 answer, with `Retry-After` in whole seconds (at least one).
    private static func tooManyRequests(retryAfter wait: Duration) -> Response {
        let seconds = max(1, Int(wait.seconds.rounded(.up)))
        return ServerError(
            .tooManyRequests, "Too many requests; retry after \(seconds) seconds.",
            headers: [.retryAfter: String(seconds)]
        ).response
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
