/// The local state of one user table: its rows, its share of the queue and its pulls.
public struct TableOverview: Sendable, Hashable {
    /// The table's name as the store spells it.
    public var name: String
    /// Rows stored locally.
    public var rows: Int
    /// Operations of the table waiting to be pushed.
    public var pendingOperations: Int
    /// Those of ``pendingOperations`` held until the insert of their parent is pushed (see ``ParentHold``).
    public var heldOperations: Int
    /// Stored push errors of the table.
    public var pushErrors: Int
    /// The recorded pulls of the table, full pull (`queryId == nil`) first, then by query id.
    public var pulls: [PullState]

    /// Creates a table overview.
    public init(
        name: String, rows: Int, pendingOperations: Int, heldOperations: Int = 0, pushErrors: Int, pulls: [PullState]
    ) {
        self.name = name
        self.rows = rows
        self.pendingOperations = pendingOperations
        self.heldOperations = heldOperations
        self.pushErrors = pushErrors
        self.pulls = pulls
    }

    /// The most recent successful pull of the table under any query id, or `nil` if it was never pulled.
    public var lastPull: Timestamp? {
        pulls.compactMap(\.lastPull).max()
    }
}
