/// Hands out operation sequence numbers inside one store write transaction, continuing after the highest
/// number the store records.
///
/// The numbers come from the store, not from a counter kept in memory: another process (the `synctables`
/// command line, an app extension) may have queued operations on the same file since this one last looked.
/// Read inside the write transaction, which holds the store's write lock, the highest number cannot change
/// until the transaction ends, so numbers increase in commit order and a push walking the queue "after
/// sequence n" never skips a later commit. A rolled-back transaction hands its numbers out again, which is
/// harmless: none of them was ever committed.
struct OperationSequence {
    private var last: Int

    /// Continues after the highest number queued in, or recorded by, the store of `transaction`.
    init(continuingIn transaction: any StoreTransaction) throws {
        last = try OperationQueue.highestSequence(in: transaction)
    }

    /// The next number.
    mutating func next() -> Int {
        last += 1
        return last
    }
}
