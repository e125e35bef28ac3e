/// What a successful ``SyncContext/push()`` did.
public struct PushSummary: Sendable, Hashable {
    /// Operations the server confirmed (and that left the queue).
    public var pushedOperations: Int
    /// Conflicts resolved by the context's ``ConflictPolicy`` during this push.
    public var resolvedConflicts: Int

    /// Creates a summary.
    public init(pushedOperations: Int = 0, resolvedConflicts: Int = 0) {
        self.pushedOperations = pushedOperations
        self.resolvedConflicts = resolvedConflicts
    }
}
