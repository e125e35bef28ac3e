import HTTPTypes
import Hummingbird

/// The static development token check: `Authorization: Bearer <token>` or `X-ZUMO-AUTH: <token>`.
enum StaticTokenCheck {
    /// Throws 401 unless the request carries the token.
    static func check(_ request: Request, token: String) throws(ServerError) {
        if let zumo = HTTPField.Name("X-ZUMO-AUTH").flatMap({ request.headers[$0] }), zumo == token { return }
        if let header = request.headers[.authorization] {
            let parts = header.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer", parts[1] == token { return }
        }
        throw ServerError(.unauthorized, "Unauthorized: a valid token is required.")
    }
}
