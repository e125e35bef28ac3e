/// A keyed write as its record names it: whose key it is, the key, and the request it stood for.
struct IdempotentRequest: Sendable, Hashable {
    /// Whose key: keys of different callers never meet (see ``scope(of:)``).
    var scope: String
    /// The `Idempotency-Key`.
    var key: String
    /// `POST`, `PATCH` or `DELETE`.
    var method: String
    /// The percent-decoded path, `/tables/{table}` or `/tables/{table}/{id}`, so a batch's write and the
    /// single request it stands for name the same request.
    var path: String

    /// The scope of a caller's keys: its verified subject; callers without one (no identity, or the static
    /// development token) share one scope.
    static func scope(of caller: Caller) -> String {
        caller.subject.map { "subject:" + $0 } ?? ""
    }

    /// `method path`, for messages.
    var requestLine: String { "\(method) \(path)" }
}
