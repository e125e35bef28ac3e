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
    /// Where outcomes (pushed, failed, dead, discarded, resolved) are recorded, in their transactions.
    let history: OperationHistory

    // MARK: Building blocks for one transaction

    /// A new operation at the tail of the queue (not yet saved), numbered by `sequence`.
    func makeOperation(
        sequence: inout OperationSequence,
        kind: OperationKind,
        table: String,
        itemId: String,
        item: JSONObject?,
        createdAt: Timestamp
    ) -> PendingOperation {
        PendingOperation(
            id: ItemID.generate(),
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
        try transaction.queuedOperation(table: table, itemId: itemId)
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
        try transaction.queuedOperations(OperationSelection(operationId: id, limit: 1)).first
    }

    /// Stores new or changed operations.
    static func save(_ operations: [PendingOperation], in transaction: any StoreTransaction) throws {
        guard !operations.isEmpty else { return }
        try transaction.saveQueuedOperations(operations)
    }

    /// Removes operations and their stored errors.
    func remove(_ operations: [PendingOperation], in transaction: any StoreTransaction) throws {
        guard !operations.isEmpty else { return }
        try transaction.removeQueuedOperations(operations)
        for operation in operations {
            try OperationErrorRecord.deleteRecords(operationId: operation.id, in: transaction)
        }
        try RetryRecord.delete(operationIds: operations.map(\.id), in: transaction)
        try Self.recordHighestSequence(removing: operations, in: transaction)
    }

    /// Records the highest sequence among `operations` (about to leave the queue) when it is above the
    /// recorded mark, so numbering continues above it once the queue is empty, in this process or another.
    static func recordHighestSequence(
        removing operations: [PendingOperation], in transaction: any StoreTransaction
    )
        throws
    {
        guard let removed = operations.map(\.sequence).max() else { return }
        let recorded = try SystemConfig.value(for: SystemConfig.operationSequenceKey, in: transaction).flatMap {
            Int($0)
        }
        guard removed > recorded ?? 0 else { return }
        try SystemConfig.setValue(String(removed), for: SystemConfig.operationSequenceKey, in: transaction)
    }

    /// The highest sequence ever handed out: the larger of the queue's maximum and the recorded mark.
    static func highestSequence(in transaction: any StoreTransaction) throws -> Int {
        let queued = try transaction.highestQueuedSequence() ?? 0
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
        try transaction.queuedOperations(OperationSelection(tables: tables, afterSequence: sequence, limit: 1)).first
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
}
