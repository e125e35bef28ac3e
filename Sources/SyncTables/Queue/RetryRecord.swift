import Foundation

/// How delivering one operation has gone: the ``SyncEngine``'s failures so far, when it may be sent again
/// and its recent attempts, and the parent a push last found it waiting for (``ParentHold``). One row per
/// operation in `__retries`, written in the transaction that records the failure or the hold, so a restart
/// mid-backoff waits out the rest instead of starting over.
struct RetryRecord: SystemRecord, Hashable {
    static var table: String { SystemTables.retries }

    /// The operation's id (also the row's id).
    var operationId: String
    /// The operation's edit counter when the record was last written; a local edit since makes it stale.
    var operationVersion: Int
    /// Failed attempts of this version of the operation.
    var failures: Int
    /// Not sent by the engine before this time; `nil` when it may go at once.
    var nextAttemptAt: Timestamp?
    /// The latest attempts, oldest first (at most ``historyLimit``).
    var history: [DeadOperation.Attempt]
    /// The parent (`<table>|<id>`, the table lower-cased) whose insert this version of the operation was last
    /// held for: the history says it waits once, not at every push.
    var heldFor: String?

    static let historyLimit = 10

    enum Field {
        static let operationVersion = "operationVersion"
        static let failures = "failures"
        static let nextAttemptAt = "nextAttemptAt"
        static let history = "history"
        static let heldFor = "heldFor"
    }

    init(operationId: String, operationVersion: Int) {
        self.operationId = operationId
        self.operationVersion = operationVersion
        self.failures = 0
        self.history = []
    }

    /// Adds a failed attempt, keeping the latest ``historyLimit``.
    mutating func recordFailure(_ attempt: DeadOperation.Attempt) {
        failures += 1
        history.append(attempt)
        if history.count > Self.historyLimit { history.removeFirst(history.count - Self.historyLimit) }
    }

    var row: JSONObject {
        var properties: [String: JSONValue] = [
            "id": .string(operationId),
            Field.operationVersion: .integer(Int64(operationVersion)),
            Field.failures: .integer(Int64(failures)),
            Field.history: .array(history.map(\.json)),
        ]
        if let nextAttemptAt { properties[Field.nextAttemptAt] = .string(nextAttemptAt.iso8601) }
        if let heldFor { properties[Field.heldFor] = .string(heldFor) }
        return JSONObject(properties)
    }

    init(_ row: SystemRow) throws(SyncError) {
        self.init(operationId: try row.string("id"), operationVersion: try row.integer(Field.operationVersion))
        failures = try row.integer(Field.failures)
        nextAttemptAt = row.optionalTimestamp(Field.nextAttemptAt)
        history = (row.optionalArray(Field.history) ?? []).compactMap(DeadOperation.Attempt.init(json:))
        heldFor = row.optionalString(Field.heldFor)
    }

    // MARK: Storage

    /// The record of `operation`, or a fresh one when there is none or it belongs to an older edit.
    static func current(for operation: PendingOperation, in transaction: any StoreTransaction) throws -> RetryRecord {
        let fresh = RetryRecord(operationId: operation.id, operationVersion: operation.version)
        guard let row = try transaction.lookup(table: SystemTables.retries, id: operation.id) else { return fresh }
        let stored = try RetryRecord(row: row)
        return stored.operationVersion == operation.version ? stored : fresh
    }

    /// Whether the engine must not send `operation` yet.
    static func isWaiting(_ operation: PendingOperation, at now: Date, in transaction: any StoreTransaction) throws
        -> Bool
    {
        guard operation.state == .failed || operation.state == .attempted else { return false }
        let record = try current(for: operation, in: transaction)
        guard let next = record.nextAttemptAt else { return false }
        return next.date > now
    }

    static func delete(operationIds: [String], in transaction: any StoreTransaction) throws {
        guard !operationIds.isEmpty else { return }
        _ = try transaction.delete(table: SystemTables.retries, ids: operationIds)
    }

    /// Every stored record, keyed by operation id.
    static func all(in transaction: any StoreTransaction) throws -> [String: RetryRecord] {
        var records: [String: RetryRecord] = [:]
        for row in try transaction.read(StoreQuery(table: SystemTables.retries)) {
            let record = try RetryRecord(row: row)
            records[record.operationId] = record
        }
        return records
    }
}
