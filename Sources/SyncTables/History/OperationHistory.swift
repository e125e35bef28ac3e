import Foundation
@_spi(SyncTablesTools) import SyncTablesCore

/// Writes and reads the `__history` table: one row per ``OperationHistoryEntry``, inside the transaction
/// that commits the outcome, pruned to the ``OperationHistoryRetention`` in that same transaction.
///
/// Entries are numbered from a counter in `__config`, so several processes sharing a store number them
/// one after the other (their write transactions are serialized) and numbers never repeat after pruning.
/// A row's id is its number, zero-padded, so id order is entry order and pruning by count is a range delete.
final class OperationHistory: Sendable {
    /// The time source of ``OperationHistoryEntry/recordedAt``.
    let clock: any SyncClock
    private let storedRetention: LockedState<OperationHistoryRetention>

    init(clock: any SyncClock, retention: OperationHistoryRetention = .default) {
        self.clock = clock
        self.storedRetention = LockedState(retention)
    }

    /// The limits applied from the next entry on.
    var retention: OperationHistoryRetention {
        get { storedRetention.withLock { $0 } }
        set { storedRetention.withLock { $0 = newValue } }
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
    }

    /// The `__history` table: ordered by id, pruned by age through its date property.
    static let definition = TableDefinition(
        name: SystemTables.history, dateProperties: [Field.recordedAt], indexes: [[Field.recordedAt]])

    /// Records what became of `operation` (as it is at that moment) and prunes what the retention no
    /// longer keeps; part of the caller's transaction.
    func record(
        _ operation: PendingOperation,
        _ outcome: OperationHistoryEntry.Outcome,
        status: Int? = nil,
        message: String? = nil,
        in transaction: any StoreTransaction
    ) throws {
        let retention = self.retention
        guard retention.recordsEntries else { return }
        let now = clock.now()
        let sequence = try Self.nextSequence(in: transaction)
        let entry = OperationHistoryEntry(
            sequence: sequence, operationId: operation.id, table: operation.table, itemId: operation.itemId,
            kind: operation.kind, outcome: outcome, status: status, message: message, attempts: operation.attempts,
            recordedAt: now)
        try transaction.upsert(table: SystemTables.history, items: [Self.row(entry)])
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

    static func row(_ entry: OperationHistoryEntry) -> JSONObject {
        var properties: [String: JSONValue] = [
            "id": .string(rowId(entry.sequence)),
            Field.sequence: .integer(Int64(entry.sequence)),
            Field.operationId: .string(entry.operationId),
            Field.tableName: .string(entry.table),
            Field.itemId: .string(entry.itemId),
            Field.kind: .string(entry.kind.rawValue),
            Field.outcome: .string(entry.outcome.rawValue),
            Field.attempts: .integer(Int64(entry.attempts)),
            Field.recordedAt: .string(Timestamp(date: entry.recordedAt).iso8601),
        ]
        if let status = entry.status { properties[Field.status] = .integer(Int64(status)) }
        if let message = entry.message { properties[Field.message] = .string(message) }
        return JSONObject(properties)
    }

    static func entry(from row: JSONObject) throws(SyncError) -> OperationHistoryEntry {
        func corrupt(_ field: String) -> SyncError {
            .corruptSystemTable(table: SystemTables.history, message: "history row has an invalid '\(field)'")
        }
        func string(_ name: String) throws(SyncError) -> String {
            guard let value = row[name]?.stringValue else { throw corrupt(name) }
            return value
        }
        func integer(_ name: String) throws(SyncError) -> Int {
            guard let value = row[name]?.int64Value else { throw corrupt(name) }
            return Int(value)
        }
        guard let kind = OperationKind(rawValue: try string(Field.kind)) else { throw corrupt(Field.kind) }
        guard let outcome = OperationHistoryEntry.Outcome(rawValue: try string(Field.outcome)) else {
            throw corrupt(Field.outcome)
        }
        guard let recordedAt = try? Timestamp(iso8601: try string(Field.recordedAt)) else {
            throw corrupt(Field.recordedAt)
        }
        return OperationHistoryEntry(
            sequence: try integer(Field.sequence), operationId: try string(Field.operationId),
            table: try string(Field.tableName), itemId: try string(Field.itemId), kind: kind, outcome: outcome,
            status: row[Field.status]?.int64Value.map { Int($0) }, message: row[Field.message]?.stringValue,
            attempts: try integer(Field.attempts), recordedAt: recordedAt.date)
    }
}
