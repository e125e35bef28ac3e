// What a push writes once an operation's answer is known: completing, failing or dead-lettering it.
// Each is a building block for one store transaction, so a batch's outcomes commit together; each does
// nothing when the operation left the queue meanwhile.

extension OperationQueue {
    /// Removes a confirmed operation and stores the server's item (`serverItem`, `nil` for deletes).
    ///
    /// An operation edited while on the wire stays queued with the newer local data and takes the server's
    /// system properties, so its next push carries the right `If-Match`.
    func complete(_ operation: PendingOperation, serverItem: JSONObject?, in transaction: any StoreTransaction)
        throws
    {
        let table = operation.table
        guard var stored = try Self.stored(operation, in: transaction) else { return }
        let serverRow = serverItem.flatMap { $0["id"] == .string(operation.itemId) ? $0 : nil }
        if stored.version == operation.version {
            try remove([stored], in: transaction)
            guard stored.kind != .delete, let serverRow else { return }
            if serverRow.isTombstone {
                // Our write landed, and the item was deleted on the server since (a retried write
                // answered with an equal but deleted item): the deletion wins, never a live row.
                try transaction.delete(table: table, ids: [operation.itemId])
            } else {
                try transaction.upsert(table: table, items: [serverRow])
            }
            return
        }
        // Edited while on the wire (only possible through queue APIs).
        if stored.kind == .insert { stored.kind = .update }
        stored.state = .pending
        try Self.save([stored], in: transaction)
        if let serverRow, var row = try transaction.lookup(table: table, id: operation.itemId) {
            for name in ["version", "createdAt", "updatedAt"] { row[name] = serverRow[name] }
            try transaction.upsert(table: table, items: [row])
        }
    }

    /// Marks an operation failed with `record` as its only error; with a delivery policy (the engine's)
    /// the failure is also scheduled for retry or dead-lettered.
    static func fail(
        _ operation: PendingOperation, record: OperationErrorRecord, failure: OperationFailure,
        delivery: DeliveryPolicy?, in transaction: any StoreTransaction
    ) throws {
        guard var stored = try Self.stored(operation, in: transaction) else { return }
        try OperationErrorRecord.deleteRecords(operationId: stored.id, in: transaction)
        try OperationErrorRecord.save(record, in: transaction)
        stored.state = .failed
        try delivery?.recordFailure(
            of: &stored, status: failure.status, message: failure.message, retryAfter: failure.retryAfter,
            permanent: failure.permanent, in: transaction)
        try Self.save([stored], in: transaction)
    }

    /// Moves a failed operation whose conflict stayed unresolved to the dead state (unless edited since).
    static func deadLetter(_ operation: PendingOperation, in transaction: any StoreTransaction) throws {
        guard var stored = try Self.stored(operation, in: transaction), stored.state == .failed else { return }
        stored.state = .dead
        try Self.save([stored], in: transaction)
    }
}
