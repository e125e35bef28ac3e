@_spi(SyncTablesTools) import SyncTablesCore

/// Keeps a queued update current with the server copies pulls bring: the local change is merged onto the
/// pulled copy (the table's field rules decide fields both sides changed), which becomes the operation's
/// ancestor, so the push sends the change against the server's current version instead of meeting a conflict,
/// and the app sees the other side's edits at once.
///
/// Only tables that merge fields rebase; only updates that are not on the wire (pending or failed) and know
/// their ancestor do. A merge that asks the app leaves the record skipped, for the push's conflict to settle.
struct PullRebase: Sendable {
    let rules: SyncRules
    /// Where a rebase that settles the operation removes it, and records every rebase in the history.
    let queue: OperationQueue

    /// Whether `operation` follows pulled copies of its item.
    func applies(to operation: PendingOperation) -> Bool {
        rules.mergesFields && operation.kind == .update && operation.ancestor != nil
            && (operation.state == .pending || operation.state == .failed)
    }

    /// Merges the local `row` of `operation` onto the pulled `record`; returns whether it did.
    func rebase(
        _ operation: PendingOperation, row: JSONObject, onto record: JSONObject, in transaction: any StoreTransaction
    ) throws -> Bool {
        guard let ancestor = operation.ancestor, record["version"] != ancestor["version"] else { return false }
        let result = rules.merge(ancestor: ancestor, local: row, server: record)
        guard result.isComplete else { return false }
        let trace = ResolutionTrace(
            conflict: .updateUpdate, rule: .merge, steps: result.steps,
            message: "update/update: merged per field with a pulled copy: \(result.summary)")
        // What the operation would send changes, so errors about its old form no longer apply.
        try OperationErrorRecord.deleteRecords(operationId: operation.id, in: transaction)
        if ItemComparison.sameUserData(result.merged, record) {
            // The server's copy holds every local change already: nothing is left to send.
            try transaction.upsert(table: operation.table, items: [record])
            try queue.settle([operation], as: .resolved, trace: trace, in: transaction)
            return true
        }
        var rebased = operation
        rebased.ancestor = record
        rebased.state = .pending
        rebased.version += 1
        try transaction.upsert(table: operation.table, items: [result.merged])
        try OperationQueue.save([rebased], in: transaction)
        try queue.history.record(rebased, .resolved, trace: trace, in: transaction)
        return true
    }
}
