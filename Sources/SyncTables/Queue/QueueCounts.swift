/// How many operations the queue holds, for a badge or an operations screen; observable without a running
/// ``SyncEngine`` (``SyncContext/queueCountUpdates()``).
public struct QueueCounts: Sendable, Hashable {
    /// Operations waiting to be pushed (dead ones not included).
    public var pending: Int
    /// Dead-lettered operations (see ``DeadOperation``).
    public var dead: Int

    /// Counts.
    public init(pending: Int, dead: Int) {
        self.pending = pending
        self.dead = dead
    }
}
