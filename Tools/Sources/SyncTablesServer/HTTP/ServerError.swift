import Hummingbird
import SyncTablesCore

/// A request the server refuses: an HTTP status, a message for the `{"error": …}` body, and for conflicts the
/// current server item (sent as the body instead, with its `ETag`).
package struct ServerError: Error, Sendable {
    /// The response status.
    var status: HTTPResponse.Status
    /// The human-readable reason, sent as `{"error": message}`.
    var message: String
    /// For 409/412 conflicts: the item as the server holds it.
    var serverItem: JSONObject?
    /// Extra response headers, e.g. `Allow` on 405.
    var headers: HTTPFields

    package init(
        _ status: HTTPResponse.Status, _ message: String, serverItem: JSONObject? = nil, headers: HTTPFields = [:]
    ) {
        self.status = status
        self.message = message
        self.serverItem = serverItem
        self.headers = headers
    }

    /// The response that reports this error to the client.
    var response: Response {
        var response =
            if let serverItem {
                JSONResponse.item(serverItem, status: status)
            } else {
                JSONResponse.error(message, status: status)
            }
        response.headers.append(contentsOf: headers)
        return response
    }
}
