import Foundation
@_spi(SyncTablesTools) import SyncTablesCore

/// What becomes of an operation — pushed, failed, dead-lettered, discarded, resolved — as building blocks
/// for one store transaction. Each records its ``OperationHistoryEntry`` in the same transaction, so a crash
/// never leaves an outcome without its entry or an entry without its outcome.
///
/// Each takes the operation as the caller read it and does nothing (returning `false`) when it left the
/// queue meanwhile.
extension OperationQueue {
    /// The server confirmed `operation` and answered with `serverItem`: removes it and stores the server's
    /// item, or, when a local write changed it while it was on the wire, keeps the newer local data with the
    /// server's system properties so the next push carries the right `If-Match`.
    @discardableResult
    func completePush(of operation: PendingOperation, serverItem: JSONObject?, in transaction: any StoreTransaction)
        throws -> Bool
    {
        guard var stored = try Self.stored(operation, in: transaction) else { return false }
        let table = operation.table
        try history.record(stored, .pushed, in: transaction)
        let serverRow = serverItem.flatMap { $0["id"] == .string(operation.itemId) ? $0 : nil }
        if stored.version == operation.version {
            try remove([stored], in: transaction)
            guard stored.kind != .delete, let serverRow else { return true }
            if serverRow.isTombstone {
                // Our write landed, and the item was deleted on the server since (a retried write
                // answered with an equal but deleted item): the deletion wins, never a live row.
                try transaction.delete(table: table, ids: [operation.itemId])
            } else {
                try transaction.upsert(table: table, items: [serverRow])
            }
            return true
        }
        // Edited while on the wire (only possible through queue APIs).
        try keepForLaterEdits(&stored, serverRow: serverRow, in: transaction)
        return true
    }

    /// The server replayed the answer to an earlier attempt of `operation` (its answer was lost, and the
    /// item was edited again before this resend): that attempt's write is on the server, the later local
    /// edits are not yet. The operation stays queued, based on `serverItem`, and goes again. Returns
    /// whether the operation was still queued.
    @discardableResult
    func completeEarlierAttempt(
        of operation: PendingOperation, serverItem: JSONObject, in transaction: any StoreTransaction
    ) throws -> Bool {
        guard var stored = try Self.stored(operation, in: transaction) else { return false }
        try history.record(stored, .pushed, in: transaction)
        let serverRow = serverItem["id"] == .string(operation.itemId) ? serverItem : nil
        try keepForLaterEdits(&stored, serverRow: serverRow, in: transaction)
        return true
    }

    /// A write of the item reached the server, and local edits made after it still have to go: the
    /// operation (an update now, if it was an insert) waits to be sent again, its ancestor and the local
    /// row's system properties taken from `serverRow`, so the next write is based on it.
    private func keepForLaterEdits(
        _ stored: inout PendingOperation, serverRow: JSONObject?, in transaction: any StoreTransaction
    ) throws {
        if stored.kind == .insert { stored.kind = .update }
        stored.state = .pending
        // The later local edits build on what the server now holds.
        if let serverRow, !serverRow.isTombstone, stored.kind == .update { stored.ancestor = serverRow }
        try Self.save([stored], in: transaction)
        if let serverRow, var row = try transaction.lookup(table: stored.table, id: stored.itemId) {
            for name in ["version", "createdAt", "updatedAt"] { row[name] = serverRow[name] }
            try transaction.upsert(table: stored.table, items: [row])
        }
    }

    /// An attempt of `operation` failed as `error` says: the error replaces the operation's earlier ones
    /// and the operation becomes `failed`; then the push's failure `policy` may schedule its retry or
    /// dead-letter it. Returns the operation as stored, `nil` when it changed or left meanwhile.
    @discardableResult
    func recordFailure(
        of operation: PendingOperation,
        error: OperationErrorRecord,
        retryAfter: Duration? = nil,
        permanent: Bool = false,
        policy: any PushFailurePolicy,
        in transaction: any StoreTransaction
    ) throws -> PendingOperation? {
        guard var stored = try Self.stored(operation, in: transaction) else { return nil }
        try OperationErrorRecord.deleteRecords(operationId: stored.id, in: transaction)
        try error.save(in: transaction)
        stored.state = .failed
        try policy.recordFailure(
            of: &stored, status: error.status, message: error.message, retryAfter: retryAfter, permanent: permanent,
            in: transaction)
        try Self.save([stored], in: transaction)
        try history.record(
            stored, stored.state == .dead ? .deadLettered : .failed, status: error.status, message: error.message,
            in: transaction)
        return stored
    }

    /// Sets a failed operation aside (state `dead`): a conflict no policy resolved. Returns the dead
    /// operation, `nil` when it changed or left meanwhile.
    @discardableResult
    func deadLetter(_ operation: PendingOperation, in transaction: any StoreTransaction) throws -> PendingOperation? {
        guard var stored = try Self.stored(operation, in: transaction), stored.state == .failed else { return nil }
        stored.state = .dead
        try Self.save([stored], in: transaction)
        let error = try OperationErrorRecord.records(operationId: stored.id, in: transaction).last
        try history.record(stored, .deadLettered, status: error?.status, message: error?.message, in: transaction)
        return stored
    }

    /// Removes operations without sending them (their errors go too), recording each as `outcome`
    /// (``OperationHistoryEntry/Outcome/discarded`` or ``OperationHistoryEntry/Outcome/resolved``).
    func settle(
        _ operations: [PendingOperation], as outcome: OperationHistoryEntry.Outcome, trace: ResolutionTrace? = nil,
        in transaction: any StoreTransaction
    ) throws {
        for operation in operations { try history.record(operation, outcome, trace: trace, in: transaction) }
        try remove(operations, in: transaction)
    }
}
