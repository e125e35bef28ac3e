// The queue's size limit: a bound on what an app offline for long can pile up.

extension SyncContext {
    /// Limits the queue to `limit` operations (dead ones included) from now on; `nil` removes the limit.
    ///
    /// A local write that would add operations beyond it throws ``SyncError/queueFull(limit:)`` and changes
    /// nothing; a write that collapses into an operation already queued (an update of an item whose insert
    /// waits, say) is allowed however full the queue is. Operations queued before a lower limit was set stay.
    ///
    /// ```swift
    /// await context.setMaxQueueSize(10_000)
    /// ```
    public func setMaxQueueSize(_ limit: Int?) {
        maxQueueSize = limit.map { max(0, $0) }
    }

    /// Throws ``SyncError/queueFull(limit:)`` inside a write's transaction (rolling it back) when the write
    /// added operations and the queue now holds more than `limit`.
    static func checkQueueLimit(_ limit: Int, before: Int, in transaction: any StoreTransaction) throws {
        let after = try transaction.countQueuedOperations(.all)
        if after > limit && after > before { throw SyncError.queueFull(limit: limit) }
    }
}
