import HTTPTypes
import Hummingbird
@_spi(SyncTablesTools) import SyncTablesCore

/// The verbs of `/tables/{table}` and `/tables/{table}/{id}`.
struct TableRoutes {
    let configuration: SyncServerConfiguration
    let tables: TableService
    /// Keyed writes run once (the idempotency extension).
    let idempotency: IdempotentWrites
    /// Who sent the request, as its credentials prove.
    let caller: Caller
    /// `host:port` of the listening socket, for links when the request has no `Host`.
    let localAuthority: String

    /// `/tables/{table}`: GET queries, POST inserts.
    func collection(_ request: Request, table: String, query: QueryString, body: [UInt8]) async throws -> Response {
        switch request.method {
        case .get:
            let options = try QueryOptions(query, maxTop: configuration.maxTop)
            let page = try await tables.query(
                table: table, caller: caller, options: options, pageSize: configuration.pageSize)
            var headers = HTTPFields()
            let link = NextLink.header(
                request: request,
                query: query,
                options: options,
                page: page,
                fallbackAuthority: localAuthority
            )
            if let link, let name = HTTPField.Name("Link") { headers[name] = link }
            if configuration.advertisesKeysetPull, let name = HTTPField.Name(ServerCapabilities.headerName) {
                headers[name] = ServerCapabilities(keysetPull: true).headerValue
            }
            return JSONResponse.page(page.items, count: page.count, headers: headers)
        case .post:
            return try await idempotency.answer(request, caller: caller, path: "/tables/\(table)", status: .created) {
                recording in
                try await tables.insert(
                    table: table, caller: caller, item: try ItemBody.object(from: body), recording: recording)
            }
        default:
            throw methodNotAllowed(request, allowed: "GET, POST")
        }
    }

    /// `/tables/{table}/{id}`: GET looks up, PATCH merges, DELETE deletes, POST undeletes.
    func item(_ request: Request, table: String, id: String, query: QueryString, body: [UInt8]) async throws -> Response
    {
        let precondition = request.headers[.ifMatch].map(ETag.precondition(fromIfMatch:))
        let path = "/tables/\(table)/\(id)"
        switch request.method {
        case .get:
            let includeDeleted = QueryOptions.includesDeleted(query)
            let item = try await tables.lookup(table: table, caller: caller, id: id, includeDeleted: includeDeleted)
            return JSONResponse.item(item, status: .ok)
        case .patch:
            return try await idempotency.answer(request, caller: caller, path: path, status: .ok) { recording in
                try await tables.update(
                    table: table, caller: caller, id: id, patch: try ItemBody.object(from: body),
                    precondition: precondition, recording: recording)
            }
        case .delete:
            let noContent = configuration.deleteReturnsNoContent
            return try await idempotency.answer(
                request, caller: caller, path: path, status: noContent ? .noContent : .ok, carriesItem: !noContent
            ) { recording in
                try await tables.delete(
                    table: table, caller: caller, id: id, precondition: precondition, recording: recording)
            }
        case .post:
            return try await idempotency.answer(request, caller: caller, path: path, status: .ok) { recording in
                try await tables.undelete(
                    table: table, caller: caller, id: id, precondition: precondition, recording: recording)
            }
        default:
            throw methodNotAllowed(request, allowed: "GET, PATCH, DELETE, POST")
        }
    }

    private func methodNotAllowed(_ request: Request, allowed: String) -> ServerError {
        ServerError(
            .methodNotAllowed,
            "The method \(request.method) is not allowed here; use \(allowed).",
            headers: [.allow: allowed]
        )
    }
}
