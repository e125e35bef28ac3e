/// How a pull runs.
public struct PullOptions: Sendable, Hashable {
    /// Rows requested per page (`$top`); must be positive. Default 50, like every Azure client.
    public var pageSize: Int
    /// When the pulled table has pending operations, push the whole context first (`true`, the default) or
    /// only the pulled table (`false`).
    public var pushOtherTables: Bool
    /// Extra query parameters passed to the server untouched; names may not start with `$` or `__`.
    public var parameters: [String: String]
    /// Whether the pull goes on when its implicit push fails or leaves errors (`false`, the default, as in
    /// every Azure client: the pull throws the push's ``SyncError/pushFailed(_:)`` and sends no pull request).
    ///
    /// Records of items that still have an operation queued are skipped either way, so going on never
    /// overwrites a local change.
    public var continuesAfterFailedPush: Bool
    /// Whether the pull pushes first when the table has pending operations; the engine pushes on its own.
    var pushesFirst = true

    /// Creates pull options.
    public init(
        pageSize: Int = 50,
        pushOtherTables: Bool = true,
        parameters: [String: String] = [:],
        continuesAfterFailedPush: Bool = false
    ) {
        self.pageSize = pageSize
        self.pushOtherTables = pushOtherTables
        self.parameters = parameters
        self.continuesAfterFailedPush = continuesAfterFailedPush
    }
}
