/// What a purge removed from the local store.
public struct PurgeSummary: Sendable, Hashable {
    /// Rows deleted from the table.
    public var rows: Int = 0
    /// Pending operations discarded (forced purge only).
    public var operations: Int = 0
    /// Stored push errors discarded with those operations.
    public var errors: Int = 0
    /// Incremental-pull tokens reset.
    public var tokens: Int = 0

    /// Creates an empty summary.
    public init() {}
}
