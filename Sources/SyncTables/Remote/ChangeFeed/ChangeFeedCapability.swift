/// How a server offers its change feed: where, and how often it sends a heartbeat on a quiet feed.
///
/// Read from the capabilities document's `"changes": {"path": "/sync/changes", "heartbeatSeconds": 15}`.
@_spi(SyncTablesTools) public struct ChangeFeedCapability: Sendable, Hashable {
    /// The path of the feed, from the server's root (e.g. `/sync/changes`).
    @_spi(SyncTablesTools) public var path: String
    /// The longest the server stays silent on an open feed: a feed quiet for much longer has lost its connection.
    @_spi(SyncTablesTools) public var heartbeat: Duration

    /// Creates a capability.
    @_spi(SyncTablesTools) public init(path: String, heartbeat: Duration) {
        self.path = path
        self.heartbeat = heartbeat
    }

    /// The capability a document's `changes` entry describes, or `nil` when it is missing or malformed.
    init?(document: JSONObject) {
        guard case .object(let entry)? = document["changes"], case .string(let path)? = entry["path"],
            path.hasPrefix("/"), !path.contains("?"), !path.contains("#"),
            case .integer(let seconds)? = entry["heartbeatSeconds"], seconds > 0
        else { return nil }
        self.init(path: path, heartbeat: .seconds(seconds))
    }
}
