/// Applies a batch of local writes to one table inside one store transaction: row changes, collapse with
/// queued operations and enqueueing all commit together, or (on any error) not at all.
///
/// The batch is worked out in memory first (each change sees the rows and operations left by the ones
/// before it), then written with one upsert and one delete per table, which keeps batched inserts fast.
struct LocalWriteTransaction {
    let table: String
    let queue: OperationQueue
    let now: Timestamp

    /// What is known about one item while the batch is worked out.
    private struct ItemState {
        /// The operation as stored before the batch, `nil` when none.
        var originalOperation: PendingOperation?
        /// The row now, `nil` when absent.
        var row: JSONObject?
        /// The operation now, `nil` when none.
        var operation: PendingOperation?
    }

    /// What a batch did: for each change, the row it left stored (`nil` for deletes), and the change as
    /// applied (a save resolved to the insert or update it was).
    struct Applied: Sendable {
        var rows: [JSONObject?]
        var changes: [LocalChange]
    }

    /// Applies `changes` in order.
    func apply(_ changes: [LocalChange], in transaction: any StoreTransaction) throws -> Applied {
        if let inserted = try insertNewItems(changes, in: transaction) {
            return Applied(rows: inserted, changes: changes)
        }
        var states: [String: ItemState] = [:]
        var touchedOrder: [String] = []
        var results: [JSONObject?] = []
        var applied: [LocalChange] = []
        // Sized up front: growing these one item at a time rehashed every id of a large batch repeatedly.
        states.reserveCapacity(changes.count)
        touchedOrder.reserveCapacity(changes.count)
        results.reserveCapacity(changes.count)
        applied.reserveCapacity(changes.count)
        var sequence = try OperationSequence(continuingIn: transaction)

        for change in changes {
            let id = change.itemId
            var state: ItemState
            if let known = states[id] {
                state = known
            } else {
                let operation = try OperationQueue.operation(table: table, itemId: id, in: transaction)
                let row = try transaction.lookup(table: table, id: id)
                state = ItemState(originalOperation: operation, row: row, operation: operation)
                touchedOrder.append(id)
            }
            let change = change.resolved(rowStored: state.row != nil)
            results.append(try apply(change, to: &state, sequence: &sequence))
            applied.append(change)
            states[id] = state
        }

        try write(states, order: touchedOrder, in: transaction)
        return Applied(rows: results, changes: applied)
    }

    /// The common case, a batch of inserts of items that are new to the table and the queue, written
    /// without looking anything up: the store refuses an id that is stored or queued (or repeated in the
    /// batch), changing nothing. Then this returns `nil`, and the batch is worked out item by item, which
    /// throws the precise error or applies what the collapse rules allow.
    private func insertNewItems(_ changes: [LocalChange], in transaction: any StoreTransaction) throws
        -> [JSONObject?]?
    {
        var rows: [JSONObject] = []
        rows.reserveCapacity(changes.count)
        for change in changes {
            guard case .insert(let object) = change else { return nil }
            rows.append(ItemCoding.rowForInsert(object))
        }
        return try insertNew(rows: rows, itemIds: changes.map(\.itemId), in: transaction) ? rows : nil
    }

    /// Writes the rows of new items and queues their inserts in one step
    /// (``StoreTransaction/insertNew(table:items:canonicalJSON:queueing:)``); `false`, changing nothing,
    /// when the store refused an id. `canonicalJSON`, when given, is each row's JSON text, serialized
    /// beforehand.
    func insertNew(
        rows: [JSONObject], itemIds: [String], canonicalJSON: [[UInt8]]? = nil, in transaction: any StoreTransaction
    ) throws -> Bool {
        var sequence = try OperationSequence(continuingIn: transaction)
        let operations = itemIds.map {
            queue.makeOperation(sequence: &sequence, kind: .insert, table: table, itemId: $0, item: nil, createdAt: now)
        }
        return try transaction.insertNew(
            table: table, items: rows, canonicalJSON: canonicalJSON ?? [], queueing: operations)
    }

    /// Applies one change to the in-memory state of its item; a thrown error rolls the whole batch back.
    private func apply(_ change: LocalChange, to state: inout ItemState, sequence: inout OperationSequence) throws
        -> JSONObject?
    {
        let id = change.itemId
        let collapse = OperationCollapse.resolve(existing: state.operation, new: change.kind)
        if collapse == .reject, let existing = state.operation {
            throw SyncError.pendingOperationConflict(
                table: table,
                id: id,
                existing: existing.kind,
                attempted: change.kind
            )
        }

        // The stored row before this change: the ancestor of an update or delete queued now.
        let before = state.row
        var deletedItem: JSONObject?
        switch change {
        case .insert(let object):
            guard state.row == nil else { throw SyncError.duplicateInsert(table: table, id: id) }
            state.row = ItemCoding.rowForInsert(object)
        case .update(let object), .save(let object):
            // An update of nothing would queue an operation the server can only refuse.
            guard let existing = state.row else { throw SyncError.notFound(table: table, id: id) }
            state.row = ItemCoding.rowForUpdate(object, existing: existing)
        case .delete(_, let passed):
            deletedItem = state.row ?? passed ?? JSONObject(["id": .string(id)])
            state.row = nil
        }

        switch collapse {
        case .enqueue:
            state.operation = queue.makeOperation(
                sequence: &sequence,
                kind: change.kind,
                table: table,
                itemId: id,
                item: deletedItem,
                createdAt: now
            )
            if change.kind != .insert { state.operation?.ancestor = before }
        case .keepExisting:
            state.operation?.version += 1
            // New data deserves a new try: a dead-lettered operation goes back to the queue.
            if state.operation?.state == .dead { state.operation?.state = .pending }
        case .removeExisting:
            state.operation = nil
        case .convertToDelete:
            state.operation?.kind = .delete
            state.operation?.item = deletedItem
            state.operation?.state = .pending
            state.operation?.version += 1
        case .convertToUpdate, .convertToRecreate:
            let ancestor = state.operation?.ancestor
            state.operation?.kind = collapse == .convertToUpdate ? .update : .insert
            state.operation?.item = nil
            state.operation?.state = .pending
            state.operation?.version += 1
            // The update is sent against the server copy the delete was based on.
            if collapse == .convertToUpdate, state.row?["version"] == nil, let version = ancestor?["version"] {
                state.row?["version"] = version
            }
        case .reject:
            break  // thrown above
        }
        return state.row
    }

    /// Writes the final state of every touched item.
    private func write(_ states: [String: ItemState], order: [String], in transaction: any StoreTransaction) throws {
        var upserts: [JSONObject] = []
        var deletions: [String] = []
        var removedOperations: [PendingOperation] = []
        var savedOperations: [PendingOperation] = []
        var changedOperationIds: [String] = []
        upserts.reserveCapacity(order.count)
        savedOperations.reserveCapacity(order.count)

        for id in order {
            guard let state = states[id] else { continue }
            if let row = state.row { upserts.append(row) } else { deletions.append(id) }

            let original = state.originalOperation
            if let original, state.operation?.id != original.id {
                removedOperations.append(original)
            }
            if let operation = state.operation, operation != original {
                savedOperations.append(operation)
                if operation.id == original?.id { changedOperationIds.append(operation.id) }
            }
        }

        if !deletions.isEmpty { try transaction.delete(table: table, ids: deletions) }
        if !upserts.isEmpty { try transaction.upsert(table: table, items: upserts) }
        // Removal first: a removed operation and a new one for the same item share the row key.
        try queue.remove(removedOperations, in: transaction)
        try OperationQueue.save(savedOperations, in: transaction)
        // A collapse changes what the operation will send, so errors about its old form no longer apply.
        for operationId in changedOperationIds {
            try OperationErrorRecord.deleteRecords(operationId: operationId, in: transaction)
        }
    }
}
