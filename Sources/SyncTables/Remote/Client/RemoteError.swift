/// A table request that could not be made, or whose successful response could not be read.
///
/// Statuses other than 2xx are ``HTTPStatusError``; network failures are ``TransportError``.
///
/// ```swift
/// catch RemoteError.malformedResponse(let status, let body, let reason) { log(status, reason, body) }
/// ```
public enum RemoteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A 2xx response whose body is not what the protocol promises (not JSON, or not an item or a list of
    /// items); the raw body is kept for diagnosis.
    case malformedResponse(status: Int, body: [UInt8], reason: String)
    /// The table name is not a letter or `_` followed by letters, digits or `_` (at most 128 characters).
    case invalidTableName(String)
    /// The item id breaks the protocol's id rules.
    case invalidItemID(String, reason: String)
    /// The item has no string `id` property.
    case missingItemID
    /// A query parameter name is empty, or starts with `$` or `__`, which belong to the protocol.
    case invalidQueryParameter(String)
    /// The request URL could not be formed from the client's base URL.
    case invalidURL(String)
    /// The item could not be encoded as a JSON object.
    case unencodableItem(reason: String)
    /// The server's item could not be decoded as the item type; the item is kept.
    case undecodableItem(JSONObject, reason: String)

    /// What is wrong, in one sentence.
    public var description: String {
        switch self {
        case .malformedResponse(let status, let body, let reason):
            "The server's \(status) response is malformed (\(reason)); body: \(RemoteError.preview(body))"
        case .invalidTableName(let name):
            "\"\(name)\" is not a valid table name."
        case .invalidItemID(let id, let reason):
            "\"\(id)\" is not a valid item id: \(reason)"
        case .missingItemID:
            "The item has no string id."
        case .invalidQueryParameter(let name):
            "\"\(name)\" cannot be used as a custom query parameter name."
        case .invalidURL(let text):
            "\"\(text)\" is not a valid URL."
        case .unencodableItem(let reason):
            "The item cannot be encoded as a JSON object: \(reason)"
        case .undecodableItem(_, let reason):
            "The server's item cannot be decoded: \(reason)"
        }
    }

    private static func preview(_ body: [UInt8]) -> String {
        let text = String(decoding: body.prefix(200), as: UTF8.self)
        return body.count > 200 ? text + "…" : text
    }
}
