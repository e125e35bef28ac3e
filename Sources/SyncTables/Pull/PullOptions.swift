/// How a pull runs.
public struct PullOptions: Sendable, Hashable {
    /// Rows requested per page (`$top`); must be positive. Default 50, like every Azure client.
    public var pageSize: Int
    /// When the pulled table has pending operations, push the whole context first (`true`, the default) or
    /// only the pulled table (`false`).
    public var pushOtherTables: Bool
    /// Extra query parameters passed to the server untouched; names may not start with `$` or `__`.
    public var parameters: [String: String]

    /// Creates pull options.
    public init(pageSize: Int = 50, pushOtherTables: Bool = true, parameters: [String: String] = [:]) {
        self.pageSize = pageSize
        self.pushOtherTables = pushOtherTables
        self.parameters = parameters
    }
}
