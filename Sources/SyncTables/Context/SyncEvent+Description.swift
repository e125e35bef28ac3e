extension SyncEvent: CustomStringConvertible {
    /// The event as one readable line, e.g. `push finished (completed with errors): 2 pushed, 1 failed`.
    public var description: String {
        switch self {
        case .itemsInserted(let table, let ids):
            "inserted \(ids.count) item(s) into \(table)"
        case .itemUpdated(let table, let id):
            "updated \(table)/\(id)"
        case .itemDeleted(let table, let id):
            "deleted \(table)/\(id)"
        case .operationDiscarded(let operation):
            "discarded the \(operation.kind) of \(operation.table)/\(operation.itemId)"
        case .operationDeadLettered(let operation):
            "dead-lettered the \(operation.kind) of \(operation.table)/\(operation.itemId)"
        case .deadOperationsRetried(let ids):
            "put \(ids.count) dead operation(s) back in the queue"
        case .pushStarted(let pending):
            "push started: \(pending) pending operation(s)"
        case .operationPushed(let table, let id, let kind):
            "pushed the \(kind) of \(table)/\(id)"
        case .operationFailed(let table, let id, let kind, let status):
            "the \(kind) of \(table)/\(id) failed (\(status.map { "HTTP \($0)" } ?? "no response"))"
        case .pushFinished(let status, let pushed, let failed):
            "push finished (\(status)): \(pushed) pushed, \(failed) failed"
        case .pullStarted(let table, let queryId):
            "pull of \(table) started (\(Self.describe(queryId)))"
        case .pullPageApplied(let table, let queryId, let upserted, let deleted, let skipped):
            "pulled a page of \(table) (\(Self.describe(queryId))): \(upserted) upserted, \(deleted) deleted, "
                + "\(skipped) skipped"
        case .pullFinished(let table, let queryId, let received):
            "pull of \(table) finished (\(Self.describe(queryId))): \(received) record(s) received"
        case .purgeStarted(let table):
            "purge of \(table) started"
        case .purgeFinished(let table, let summary):
            "purge of \(table) finished: removed \(summary.rows) row(s), \(summary.operations) operation(s), "
                + "\(summary.errors) error(s), \(summary.tokens) token(s)"
        case .storeWiped(let summary):
            "store wiped: removed \(summary.rows) row(s) of \(summary.tables.count) table(s), "
                + "\(summary.operations) operation(s), \(summary.errors) error(s), \(summary.tokens) token(s), "
                + "\(summary.historyEntries) history entries, \(summary.attachments) attachment(s)"
        case .attachmentProgress(let sha256, let direction, let transferred, let total):
            "attachment \(sha256.prefix(12)) \(direction): \(transferred) of \(total) bytes"
        case .attachmentTransferred(let sha256, let direction, let bytes):
            "attachment \(sha256.prefix(12)) \(direction == .upload ? "uploaded" : "downloaded"): \(bytes) bytes"
        }
    }

    static func describe(_ queryId: String?) -> String {
        queryId.map { "query id \($0)" } ?? "full pull"
    }
}
