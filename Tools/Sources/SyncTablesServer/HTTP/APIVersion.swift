import HTTPTypes
import Hummingbird

/// The `ZUMO-API-VERSION` check: any `2.0.x`, from the header or the `zumo-api-version` query
/// parameter (name matched case-insensitively).
enum APIVersion {
    /// The exact message the reference server sends.
    static let invalidMessage =
        "An invalid API version was specified in the request, this request needs to specify a ZUMO-API-VERSION of 2.0.0."

    /// Throws 400 unless the request names a supported protocol version.
    static func check(_ request: Request, query: QueryString) throws(ServerError) {
        let name = HTTPField.Name("ZUMO-API-VERSION")
        let value = name.flatMap { request.headers[$0] } ?? query.valueIgnoringCase("zumo-api-version")
        guard let value, isSupported(value) else {
            throw ServerError(.badRequest, invalidMessage)
        }
    }

    /// Whether a version string matches `^2\.0\.\d+$`.
    static func isSupported(_ version: String) -> Bool {
        guard version.hasPrefix("2.0.") else { return false }
        let patch = version.dropFirst(4)
        return !patch.isEmpty && patch.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
