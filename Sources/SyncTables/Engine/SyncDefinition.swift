/// One thing the ``SyncEngine`` keeps in sync: a table, optionally a query of it, an incremental query id,
/// a conflict policy for the table's operations if it should differ from the context's, and when it syncs.
///
/// ```swift
/// let open = SyncDefinition(todos, query: todos.query().filter(Column("complete") == false),
///                           queryId: "open-todos", conflictPolicy: .serverWins,
///                           schedule: SyncSchedule(interval: .seconds(600), triggers: [.foreground]))
/// ```
public struct SyncDefinition: Sendable {
    /// The table pulled.
    public var table: String
    /// Which records are pulled (`nil`: all).
    public var query: StoreQuery?
    /// Makes the pull incremental (see ``SyncTable/pull(_:queryId:options:)``); `nil` for a full pull.
    public var queryId: String?
    /// The policy for conflicts of this table's operations, replacing the context's; `nil` keeps it.
    public var conflictPolicy: ConflictPolicy?
    /// Page size and parameters of the pull.
    public var pullOptions: PullOptions
    /// When the engine syncs it by itself.
    public var schedule: SyncSchedule

    /// A definition for a typed table handle.
    public init<Item: SyncItem>(
        _ table: SyncTable<Item>,
        query: SyncQuery<Item>? = nil,
        queryId: String? = nil,
        conflictPolicy: ConflictPolicy? = nil,
        pullOptions: PullOptions = PullOptions(),
        schedule: SyncSchedule = SyncSchedule()
    ) {
        self.table = table.name
        self.query = query?.storeQuery
        self.queryId = queryId
        self.conflictPolicy = conflictPolicy
        self.pullOptions = pullOptions
        self.schedule = schedule
    }
}
