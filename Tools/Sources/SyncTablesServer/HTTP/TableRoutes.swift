import HTTPTypes
import Hummingbird
@_spi(SyncTablesTools) import SyncTablesCore

/// The verbs of `/tables/{table}` and `/tables/{table}/{id}`.
struct TableRoutes {
    let configuration: SyncServerConfiguration
    let tables: TableService
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
            let item = try await tables.insert(table: table, caller: caller, item: try ItemBody.object(from: body))
            return JSONResponse.item(item, status: .created)
        default:
            throw methodNotAllowed(request, allowed: "GET, POST")
        }
    }

    /// `/tables/{table}/{id}`: GET looks up, PATCH merges, DELETE deletes, POST undeletes.
    func item(_ request: Request, table: String, id: String, query: QueryString, body: [UInt8]) async throws -> Response
    {
        let precondition = request.headers[.ifMatch].map(ETag.precondition(fromIfMatch:))
        switch request.method {
        case .get:
            let includeDeleted = QueryOptions.includesDeleted(query)
            let item = try await tables.lookup(table: table, caller: caller, id: id, includeDeleted: includeDeleted)
            return JSONResponse.item(item, status: .ok)
        case .patch:
            let patch = try ItemBody.object(from: body)
            let item = try await tables.update(
                table: table, caller: caller, id: id, patch: patch, precondition: precondition)
            return JSONResponse.item(item, status: .ok)
        case .delete:
            let item = try await tables.delete(table: table, caller: caller, id: id, precondition: precondition)
            if configuration.deleteReturnsNoContent {
                return Response(status: .noContent, headers: [.cacheControl: "no-cache"])
            }
            return JSONResponse.item(item, status: .ok)
        case .post:
            let item = try await tables.undelete(table: table, caller: caller, id: id, precondition: precondition)
            return JSONResponse.item(item, status: .ok)
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
