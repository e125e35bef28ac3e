@_spi(SyncTablesTools) import SyncTablesCore

/// Which ``ConflictKind`` a failed push attempt is.
enum ConflictClassification {
    /// The kind of conflict of a push attempt that failed as `failure`, in a table with `rules`: an update
    /// that met a missing item is one only where the table has an update/delete rule (elsewhere it stays a
    /// plain failure, as it was before rules existed).
    static func kind(of operation: PendingOperation, failure: OperationFailure, rules: SyncRules) -> ConflictKind? {
        kind(
            of: operation.kind, status: failure.status, serverItem: failure.serverItem,
            countsMissingItem: rules.conflictRules[.updateDelete].map { $0 != ConflictRule.ask } ?? false)
    }

    /// The kind of conflict an answer with `status` and `serverItem` to an operation of `kind` is, or `nil`
    /// when it is none: not a conflict status, a delete that met an item deleted already, or (unless
    /// `countsMissingItem`) an update that met a missing item.
    static func kind(of kind: OperationKind, status: Int?, serverItem: JSONObject?, countsMissingItem: Bool)
        -> ConflictKind?
    {
        let isConflict = status == 409 || status == 412
        let serverDeleted = serverItem?.isTombstone == true
        switch kind {
        case .insert:
            return status == 409 ? .insertInsert : nil
        case .update:
            if isConflict { return serverDeleted ? .updateDelete : .updateUpdate }
            let gone = status == 404 || status == 410
            return gone && countsMissingItem ? .updateDelete : nil
        case .delete:
            return isConflict && serverItem != nil && !serverDeleted ? .deleteUpdate : nil
        }
    }
}
