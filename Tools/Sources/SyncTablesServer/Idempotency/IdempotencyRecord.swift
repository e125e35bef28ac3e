import HTTPTypes
import Hummingbird

/// What the server remembers of a keyed write that succeeded: the request it ran for and its answer.
struct IdempotencyRecord: Sendable, Hashable {
    /// The request's method.
    var method: String
    /// The request's percent-decoded path.
    var path: String
    /// The answer it got.
    var answer: WriteAnswer
    /// When it was recorded, in milliseconds since 1970 (records expire a retention period later).
    var recordedAt: Int64

    /// The recorded answer for a repeat of the request, marked `Idempotent-Replayed: true`; a 422 when the key
    /// is used for another request (the draft's "reused key").
    func replay(for request: IdempotentRequest) throws(ServerError) -> Response {
        guard method == request.method, path == request.path else {
            throw ServerError(
                .unprocessableContent,
                "The Idempotency-Key '\(request.key)' was used for \(method) \(path); a key names one request "
                    + "and cannot be reused for \(request.requestLine).")
        }
        var response = answer.response
        if let replayed = HTTPField.Name("Idempotent-Replayed") { response.headers[replayed] = "true" }
        return response
    }
}
