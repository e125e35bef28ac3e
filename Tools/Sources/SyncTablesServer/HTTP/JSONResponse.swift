import Hummingbird
import SyncTablesCore

/// Builds the server's JSON responses, all with `Content-Type: application/json` and caching disabled.
package enum JSONResponse {
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
    package static func json(_ value: JSONValue, status: HTTPResponse.Status, headers: HTTPFields = [:]) -> Response {
        body(WireJSON.bytes(value), status: status, headers: headers)
    }

    /// A query page from rows already encoded: `[row,…]`, or `{"count":n,"results":[…]}` (sorted keys,
    /// as ``json(_:status:headers:)`` would write it) when the total count was asked for.
    static func page(_ rows: [[UInt8]], count: Int?, headers: HTTPFields) -> Response {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(rows.reduce(32) { $0 + $1.count + 1 })
        if let count { bytes.append(contentsOf: "{\"count\":\(count),\"results\":".utf8) }
        bytes.append(UInt8(ascii: "["))
        for (index, row) in rows.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: row)
        }
        bytes.append(UInt8(ascii: "]"))
        if count != nil { bytes.append(UInt8(ascii: "}")) }
        return body(bytes, status: .ok, headers: headers)
    }

    private static func body(_ bytes: [UInt8], status: HTTPResponse.Status, headers: HTTPFields) -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-cache"
        headers[.expires] = "0"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
