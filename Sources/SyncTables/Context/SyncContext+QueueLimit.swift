// The queue's size limit (``SyncContext/Configuration/maxQueueSize``): a bound on what an app offline for
// long can pile up.

extension SyncContext {
    /// Throws ``SyncError/queueFull(limit:)`` inside a write's transaction (rolling it back) when the write
    /// added operations and the queue now holds more than `limit`.
    static func checkQueueLimit(_ limit: Int, before: Int, in transaction: any StoreTransaction) throws {
        let after = try transaction.countQueuedOperations(.all)
        if after > limit && after > before { throw SyncError.queueFull(limit: limit) }
    }
}
