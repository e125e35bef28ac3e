/// Queue building blocks for purge and pull, to run inside their store transactions.
extension OperationQueue {
    /// The number of operations queued for a table.
    static func count(table: String, in transaction: any StoreTransaction) throws -> Int {
        try transaction.countQueuedOperations(OperationSelection(tables: [table]))
    }

    /// The operations queued for a table, optionally only for some of its items, in queue order.
    static func operations(
        table: String,
        itemIds: Set<String>? = nil,
        in transaction: any StoreTransaction
    ) throws -> [PendingOperation] {
        try transaction.queuedOperations(OperationSelection(tables: [table], itemIds: itemIds))
    }

    /// Removes the operations of a table (all of them, or those of some items) with their stored errors,
    /// recording them as discarded; returns the removed operations. A forced purge uses it before deleting
    /// the rows.
    @discardableResult
    func removeOperations(
        table: String,
        itemIds: Set<String>? = nil,
        in transaction: any StoreTransaction
    ) throws -> [PendingOperation] {
        let removed = try Self.operations(table: table, itemIds: itemIds, in: transaction)
        try settle(removed, as: .discarded, in: transaction)
        if itemIds == nil {
            // Errors of operations already gone (e.g. left by a crashed push) belong to the table too.
            try OperationErrorRecord.deleteRecords(table: table, in: transaction)
        }
        return removed
    }
}
