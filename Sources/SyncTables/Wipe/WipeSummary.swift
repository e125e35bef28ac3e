/// What a wipe removed from the local store (see ``SyncContext/wipe(waitingForSync:)``).
public struct WipeSummary: Sendable, Hashable {
    /// The user tables emptied, in name order; each stays defined, ready for the next user.
    public var tables: [String] = []
    /// Rows deleted from those tables.
    public var rows: Int = 0
    /// Queued operations discarded (never pushed), dead ones included.
    public var operations: Int = 0
    /// Of ``operations``, the dead-lettered ones.
    public var deadOperations: Int = 0
    /// Stored push errors discarded.
    public var errors: Int = 0
    /// Incremental-pull tokens reset: every next pull is a full pull.
    public var tokens: Int = 0
    /// Operation history entries removed.
    public var historyEntries: Int = 0
    /// Attachments whose files were removed from the device (with their keys, in an encrypted store).
    public var attachments: Int = 0

    /// Creates an empty summary.
    public init() {}
}
