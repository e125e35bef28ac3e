import Hummingbird
import SyncTablesCore

/// The successful answer to a table write, as sent and as recorded for a replay: its status and the item
/// it carries (its `ETag` is the item's version), or no body (a `204` to `DELETE`).
struct WriteAnswer: Sendable, Hashable {
    /// The HTTP status code.
    var status: Int
    /// The item of the body; `nil` for none.
    var item: JSONObject?

    /// The response, as the write's own route sends it.
    var response: Response {
        let status = HTTPResponse.Status(code: status)
        guard let item else { return Response(status: status, headers: [.cacheControl: "no-cache"]) }
        return JSONResponse.item(item, status: status)
    }
}
