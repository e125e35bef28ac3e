/// What the context remembers about one pull of a table: the incremental token and when it last succeeded.
///
/// Full pulls are recorded too, with a `nil` ``queryId`` and no token.
///
/// ```swift
/// for pull in try await context.overview().tables.flatMap(\.pulls) {
///     print(pull.table, pull.queryId ?? "(full)", pull.lastPull?.iso8601 ?? "never")
/// }
/// ```
public struct PullState: Sendable, Hashable {
    /// The pulled table.
    public var table: String
    /// The incremental query id, or `nil` for full pulls.
    public var queryId: String?
    /// The newest `updatedAt` an incremental pull has committed; the next pull asks from there.
    public var deltaToken: Timestamp?
    /// When a pull with this query id last completed successfully.
    public var lastPull: Timestamp?

    /// Creates a pull state.
    public init(table: String, queryId: String?, deltaToken: Timestamp? = nil, lastPull: Timestamp? = nil) {
        self.table = table
        self.queryId = queryId
        self.deltaToken = deltaToken
        self.lastPull = lastPull
    }
}
