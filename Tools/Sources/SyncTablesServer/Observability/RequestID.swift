import Foundation
import HTTPTypes
import Hummingbird

/// The id of one request, in every log line about it (metadata `hb.request.id`, where Hummingbird puts its own)
/// and in the response header `X-Request-Id`: the client's `X-Request-Id` when it is sane (1 to 128 printable
/// ASCII characters, no spaces), so a proxy's id follows the request, else a new random one.
enum RequestID {
    /// `X-Request-Id`.
    static let header = HTTPField.Name("X-Request-Id")!
    /// The logger metadata key, Hummingbird's own.
    static let metadataKey = "hb.request.id"
    /// The longest id taken from a client.
    static let maxLength = 128

    /// The id for `request`.
    static func of(_ request: Request) -> String {
        if let given = request.headers[header], isSane(given) { return given }
        return UUID().uuidString.lowercased()
    }

    /// Whether a client's id may be logged and echoed as it is.
    static func isSane(_ id: String) -> Bool {
        (1...maxLength).contains(id.utf8.count) && id.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }
}
