import Foundation
@_spi(SyncTablesTools) import SyncTablesCore

/// Writes and reads the `__history` table: one row per ``OperationHistoryEntry``, inside the transaction
/// that commits the outcome, pruned to the ``OperationHistoryRetention`` in that same transaction.
///
/// Entries are numbered from a counter in `__config`, so several processes sharing a store number them
/// one after the other (their write transactions are serialized) and numbers never repeat after pruning.
/// A row's id is its number, zero-padded, so id order is entry order and pruning by count is a range delete.
struct OperationHistory: Sendable {
    /// The time source of ``OperationHistoryEntry/recordedAt``.
    let clock: any SyncClock
    /// The limits applied with each new entry.
    let retention: OperationHistoryRetention

    init(clock: any SyncClock, retention: OperationHistoryRetention = .default) {
        self.clock = clock
        self.retention = retention
    }

    enum Field {
        static let sequence = "sequence"
        static let operationId = "operationId"
        static let tableName = "tableName"
        static let itemId = "itemId"
        static let kind = "operationKind"
        static let outcome = "outcome"
        static let status = "httpStatus"
        static let message = "message"
        static let attempts = "attempts"
        static let recordedAt = "recordedAt"
        static let conflict = "conflict"
        static let conflictRule = "conflictRule"
        static let merge = "merge"
    }

    /// The `__history` table: ordered by id, pruned by age through its date property.
    static let definition = TableDefinition(
        name: SystemTables.history, dateProperties: [Field.recordedAt], indexes: [[Field.recordedAt]])

    /// Records what became of `operation` (as it is at that moment) and prunes what the retention no
    /// longer keeps; part of the caller's transaction. A `trace` (an automatic conflict resolution) gives the
    /// entry its conflict, rule, merge steps and message.
    func record(
        _ operation: PendingOperation,
        _ outcome: OperationHistoryEntry.Outcome,
        status: Int? = nil,
        message: String? = nil,
        trace: ResolutionTrace? = nil,
        in transaction: any StoreTransaction
    ) throws {
        let retention = self.retention
        guard retention.recordsEntries else { return }
        let now = clock.now()
        let sequence = try Self.nextSequence(in: transaction)
        let entry = OperationHistoryEntry(
            sequence: sequence, operationId: operation.id, table: operation.table, itemId: operation.itemId,
            kind: operation.kind, outcome: outcome, status: status, message: trace?.message ?? message,
            attempts: operation.attempts, recordedAt: now, conflict: trace?.conflict, conflictRule: trace?.rule,
            merge: trace?.steps ?? [])
        try entry.save(in: transaction)
        if let maxEntries = retention.maxEntries, sequence > maxEntries {
            let beyondCount = FilterExpression.comparison(
                .lessThanOrEqual, .property("id"), .value(.string(Self.rowId(sequence - maxEntries))))
            try transaction.delete(StoreQuery(table: SystemTables.history, filter: beyondCount))
        }
        if let maxAge = retention.maxAge {
            let cutoff = Timestamp(date: now.addingTimeInterval(-maxAge.timeInterval))
            let expired = FilterExpression.comparison(.lessThan, .property(Field.recordedAt), .timestamp(cutoff))
            try transaction.delete(StoreQuery(table: SystemTables.history, filter: expired))
        }
    }

    /// The query of the entries of one table (or all), newest first, at most `limit` of them.
    static func query(table: String?, limit: Int?) -> StoreQuery {
        let filter = table.map { FilterExpression.comparison(.equal, .property(Field.tableName), .value(.string($0))) }
        return StoreQuery(
            table: SystemTables.history, filter: filter, ordering: [SortDescriptor("id", ascending: false)],
            limit: limit)
    }

    /// Takes the next number from the counter in `__config`.
    private static func nextSequence(in transaction: any StoreTransaction) throws -> Int {
        let last = try SystemConfig.value(for: SystemConfig.historySequenceKey, in: transaction).flatMap { Int($0) }
        let next = (last ?? 0) + 1
        try SystemConfig.setValue(String(next), for: SystemConfig.historySequenceKey, in: transaction)
        return next
    }

    /// Twenty digits: every `Int` sequence fits, and string order is number order.
    static func rowId(_ sequence: Int) -> String {
        let digits = String(sequence)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits
    }
}

extension OperationHistoryEntry: SystemRecord {
    typealias Field = OperationHistory.Field

    static var table: String { SystemTables.history }

    /// The entry's `__history` row; its id is its zero-padded number.
    var row: JSONObject {
        var properties: [String: JSONValue] = [
            "id": .string(OperationHistory.rowId(sequence)),
            Field.sequence: .integer(Int64(sequence)),
            Field.operationId: .string(operationId),
            Field.tableName: .string(table),
            Field.itemId: .string(itemId),
            Field.kind: .string(kind.rawValue),
            Field.outcome: .string(outcome.rawValue),
            Field.attempts: .integer(Int64(attempts)),
            Field.recordedAt: .string(Timestamp(date: recordedAt).iso8601),
        ]
        if let status { properties[Field.status] = .integer(Int64(status)) }
        if let message { properties[Field.message] = .string(message) }
        if let conflict { properties[Field.conflict] = .string(conflict.rawValue) }
        if let conflictRule { properties[Field.conflictRule] = .string(conflictRule.rawValue) }
        if !merge.isEmpty {
            properties[Field.merge] = .array(
                merge.map { step in
                    var object = JSONObject([
                        "field": .string(step.field), "change": .string(step.change.rawValue),
                        "summary": .string(step.summary),
                    ])
                    if let rule = step.rule { object["rule"] = .string(rule.rawValue) }
                    return .object(object)
                })
        }
        return JSONObject(properties)
    }

    init(_ row: SystemRow) throws(SyncError) {
        self.init(
            sequence: try row.integer(Field.sequence), operationId: try row.string(Field.operationId),
            table: try row.string(Field.tableName), itemId: try row.string(Field.itemId),
            kind: try row.value(Field.kind, as: OperationKind.self),
            outcome: try row.value(Field.outcome, as: Outcome.self), status: row.optionalInteger(Field.status),
            message: row.optionalString(Field.message), attempts: try row.integer(Field.attempts),
            recordedAt: try row.timestamp(Field.recordedAt).date,
            conflict: row.optionalString(Field.conflict).flatMap(ConflictKind.init(rawValue:)),
            conflictRule: row.optionalString(Field.conflictRule).flatMap(ConflictRule.init(rawValue:)),
            merge: try (row.optionalArray(Field.merge) ?? []).map { value throws(SyncError) in
                guard case .object(let step) = value, case .string(let field)? = step["field"],
                    case .string(let change)? = step["change"], let change = FieldMergeStep.Change(rawValue: change),
                    case .string(let summary)? = step["summary"]
                else { throw row.corrupt(Field.merge) }
                return FieldMergeStep(
                    field: field, change: change,
                    rule: step["rule"]?.stringValue.flatMap(FieldMergeRule.init(rawValue:)),
                    summary: summary)
            })
    }
}
