@_spi(SyncTablesTools) import SyncTablesCore

/// Which ``ConflictKind`` a failed push attempt is.
enum ConflictClassification {
    /// The kind of conflict, or `nil` when the failure is none: not a conflict status, a delete that met an
    /// item deleted already, or an update that met a missing item in a table without an update/delete
    /// rule (which stays a plain failure, as it was before rules existed).
    static func kind(of operation: PendingOperation, failure: OperationFailure, rules: SyncRules) -> ConflictKind? {
        let serverDeleted = failure.serverItem?.isTombstone == true
        switch operation.kind {
        case .insert:
            return failure.status == 409 ? .insertInsert : nil
        case .update:
            if failure.isConflict { return serverDeleted ? .updateDelete : .updateUpdate }
            let gone = failure.status == 404 || failure.status == 410
            let ruled = rules.conflictRules[.updateDelete].map { $0 != ConflictRule.ask } ?? false
            return gone && ruled ? .updateDelete : nil
        case .delete:
            return failure.isConflict && failure.serverItem != nil && !serverDeleted ? .deleteUpdate : nil
        }
    }
}
