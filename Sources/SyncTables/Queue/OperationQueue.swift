import Foundation

/// The durable, context-wide FIFO of pending operations, stored as rows of `__operations`.
///
/// At most one operation exists per item (later local writes collapse into it), keyed by
/// `<table>|<itemId>`, so finding an item's operation is a primary-key lookup. Operations are pushed in
/// ascending ``PendingOperation/sequence``.
///
/// The `in transaction` members compose with other changes in one atomic store write (a local write,
/// a push result, a purge); the `async` members are single-purpose transactions for push and tools.
/// Every change that alters an operation bumps its version and removes its stored errors.
struct OperationQueue: Sendable {
    /// The store holding `__operations`.
    let store: any LocalStore
    /// The sequence counter shared by everything that enqueues.
    let sequence: OperationSequence

    // MARK: Building blocks for one transaction

    /// A new operation at the tail of the queue (not yet saved).
    func makeOperation(
        kind: OperationKind,
        table: String,
        itemId: String,
        item: JSONObject?,
        createdAt: Timestamp
    ) -> PendingOperation {
        PendingOperation(
            id: UUID().uuidString,
            sequence: sequence.next(),
            kind: kind,
            table: table,
            itemId: itemId,
            item: kind == .delete ? item : nil,
            state: .pending,
            version: 1,
            createdAt: createdAt,
            attempts: 0
        )
    }

    /// The operation queued for an item, or `nil`.
    static func operation(table: String, itemId: String, in transaction: any StoreTransaction) throws
        -> PendingOperation?
    {
        let key = PendingOperation.rowKey(table: table, itemId: itemId)
        guard let row = try transaction.lookup(table: SystemTables.operations, id: key) else { return nil }
        return try PendingOperation(row: row)
    }

    /// The operation `operation` names (same operation id) if it is still queued, whatever its version,
    /// or `nil`: a primary-key lookup by its item, where ``operation(id:in:)`` scans.
    static func stored(_ operation: PendingOperation, in transaction: any StoreTransaction) throws
        -> PendingOperation?
    {
        let stored = try Self.operation(table: operation.table, itemId: operation.itemId, in: transaction)
        return stored?.id == operation.id ? stored : nil
    }

    /// The operation with this operation id, or `nil`.
    static func operation(id: String, in transaction: any StoreTransaction) throws -> PendingOperation? {
        let filter = equal(PendingOperation.Field.operationId, .string(id))
        let rows = try transaction.read(StoreQuery(table: SystemTables.operations, filter: filter, limit: 1))
        return try rows.first.map { try PendingOperation(row: $0) }
    }

    /// Stores new or changed operations.
    static func save(_ operations: [PendingOperation], in transaction: any StoreTransaction) throws {
        guard !operations.isEmpty else { return }
        try transaction.upsert(table: SystemTables.operations, items: operations.map(\.row))
    }

    /// Removes operations and their stored errors.
    func remove(_ operations: [PendingOperation], in transaction: any StoreTransaction) throws {
        guard !operations.isEmpty else { return }
        let keys = operations.map { PendingOperation.rowKey(table: $0.table, itemId: $0.itemId) }
        try transaction.delete(table: SystemTables.operations, ids: keys)
        for operation in operations {
            try OperationErrorRecord.deleteRecords(operationId: operation.id, in: transaction)
        }
        // Remember the high-water mark so numbering continues above it after a reopen with an empty queue.
        try SystemConfig.setValue(String(sequence.current), for: SystemConfig.operationSequenceKey, in: transaction)
    }

    /// The highest sequence ever handed out: the larger of the queue's maximum and the recorded mark.
    static func highestSequence(in transaction: any StoreTransaction) throws -> Int {
        let last = try transaction.read(
            StoreQuery(
                table: SystemTables.operations,
                ordering: [SortDescriptor(PendingOperation.Field.sequence, ascending: false)],
                limit: 1
            )
        )
        let queued = try last.first.map { try PendingOperation(row: $0).sequence } ?? 0
        let recorded = try SystemConfig.value(for: SystemConfig.operationSequenceKey, in: transaction).flatMap {
            Int($0)
        }
        return max(queued, recorded ?? 0)
    }

    /// The first operation after `sequence`, optionally only of some tables.
    static func next(
        after sequence: Int,
        tables: Set<String>?,
        in transaction: any StoreTransaction
    ) throws -> PendingOperation? {
        let query = StoreQuery(
            table: SystemTables.operations,
            filter: filter(after: sequence, tables: tables),
            ordering: [SortDescriptor(PendingOperation.Field.sequence)],
            limit: 1
        )
        return try transaction.read(query).first.map { try PendingOperation(row: $0) }
    }

    /// Fetches the current copy of `operation` and checks it is the version the caller holds.
    static func current(
        _ operation: PendingOperation,
        in transaction: any StoreTransaction
    ) throws -> PendingOperation {
        guard let stored = try Self.operation(table: operation.table, itemId: operation.itemId, in: transaction),
            stored.id == operation.id
        else {
            throw SyncError.operationNotFound(id: operation.id)
        }
        guard stored.version == operation.version else {
            throw SyncError.operationChanged(id: operation.id, expected: operation.version, actual: stored.version)
        }
        return stored
    }

    // MARK: Queries

    static func filter(after sequence: Int? = nil, tables: Set<String>?) -> FilterExpression? {
        var conditions: [FilterExpression] = []
        if let sequence {
            conditions.append(
                .comparison(
                    .greaterThan,
                    .property(PendingOperation.Field.sequence),
                    .value(.integer(Int64(sequence)))
                )
            )
        }
        if let tables {
            let names = tables.sorted().map { FilterExpression.value(.string($0)) }
            conditions.append(.isIn(.property(PendingOperation.Field.tableName), names))
        }
        return conditions.reduce(nil) { combined, condition in
            combined.map { .and($0, condition) } ?? condition
        }
    }

    static func equal(_ field: String, _ value: JSONValue) -> FilterExpression {
        .comparison(.equal, .property(field), .value(value))
    }
}
