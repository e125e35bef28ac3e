@_spi(SyncTablesTools) import SyncTables

/// A scripted fault: which requests it matches and what happens to the one it fires on.
///
/// ```swift
/// // The second PATCH to any item of `todo` gets a 500.
/// FaultRule(method: "PATCH", path: "/tables/todo/", matchesPrefix: true, occurrence: 2,
///           action: .respond(status: 500))
/// ```
public struct FaultRule: Sendable, Hashable {
    /// The HTTP method to match (case-insensitive), or `nil` for any.
    public var method: String?
    /// The request path to match (as sent, before percent-decoding), e.g. `/tables/todo`.
    public var path: String
    /// Whether `path` is a prefix rather than the whole path.
    public var matchesPrefix: Bool
    /// Fire on the n-th matching request (1-based); `nil` fires on every matching request.
    public var occurrence: Int?
    /// What to do with the request the rule fires on.
    public var action: FaultAction

    /// Creates a rule.
    public init(
        method: String? = nil,
        path: String,
        matchesPrefix: Bool = false,
        occurrence: Int? = 1,
        action: FaultAction
    ) {
        self.method = method
        self.path = path
        self.matchesPrefix = matchesPrefix
        self.occurrence = occurrence
        self.action = action
    }

    /// Whether this rule applies to a request with this method and raw path.
    func matches(method requestMethod: String, path requestPath: String) -> Bool {
        if let method, method.uppercased() != requestMethod.uppercased() { return false }
        return matchesPrefix ? requestPath.hasPrefix(path) : requestPath == path
    }
}

/// What a fired ``FaultRule`` does.
public enum FaultAction: Sendable, Hashable {
    /// Answer with this status, body (default `{"error": "Injected fault"}`) and extra header fields (e.g.
    /// `Retry-After`) without running the request.
    case respond(status: Int, body: JSONValue? = nil, headers: [String: String] = [:])
    /// Close the connection without any response and without running the request.
    case dropConnection
    /// Run the request (its write is committed) and then close the connection instead of answering.
    case lostResponse
    /// Wait this many milliseconds, then run the request normally.
    case delay(milliseconds: Int)
}
