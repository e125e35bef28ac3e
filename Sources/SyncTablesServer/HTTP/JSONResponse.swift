import Hummingbird
import SyncTables

/// Builds the server's JSON responses, all with `Content-Type: application/json` and caching disabled.
enum JSONResponse {
    /// One item with its `ETag` (`"<version>"`, quotes inside escaped) when it has a version.
    static func item(_ item: JSONObject, status: HTTPResponse.Status) -> Response {
        var headers = HTTPFields()
        if case .string(let version)? = item["version"] {
            headers[.eTag] = ETag.header(for: version)
        }
        return json(.object(item), status: status, headers: headers)
    }

    /// An error body `{"error": message}`.
    static func error(_ message: String, status: HTTPResponse.Status) -> Response {
        json(.object(JSONObject(["error": .string(message)])), status: status)
    }

    /// Any JSON value.
    static func json(_ value: JSONValue, status: HTTPResponse.Status, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-cache"
        headers[.expires] = "0"
        let body = WireJSON.bytes(value)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
