/// The queue operations push, pull and error resolution use, each one atomic store transaction.
///
/// Methods taking an operation check that the stored operation is still the same version the caller
/// holds; if a local write changed it meanwhile they throw ``SyncError/operationChanged(id:expected:actual:)``
/// (or ``SyncError/operationNotFound(id:)``) and change nothing.
extension OperationQueue {
    /// The first operation after `sequence` in queue order, optionally only of some tables.
    func next(after sequence: Int = 0, tables: Set<String>? = nil) async throws -> PendingOperation? {
        try await read { try Self.next(after: sequence, tables: tables, in: $0) }
    }

    /// What ``claimNext(after:tables:markInFlight:)`` found: the operation and the item to send.
    struct Claim: Sendable {
        /// The operation, marked attempted when `item` is present.
        var operation: PendingOperation
        /// The local row (inserts, updates) or the deleted item; `nil` when the local row is missing.
        var item: JSONObject?
    }

    /// Takes the next operation for sending, in one transaction: renews the push lease (throwing
    /// ``SyncError/pushInProgress(owner:)`` when another pusher took it over), reads the operation and its
    /// item, calls `markInFlight` (so a local write committing later sees it), and marks it attempted.
    ///
    /// One transaction instead of three store calls per pushed operation. When the local row of an insert
    /// or update is missing the operation is left as it is and the claim has no item.
    ///
    /// Operations `skips` passes over (dead ones for a plain push; the engine's also waiting ones) are left
    /// as they are.
    func claimNext(
        after sequence: Int,
        tables: Set<String>?,
        lease: PushLease,
        skips: @escaping @Sendable (PendingOperation, any StoreTransaction) throws -> Bool,
        markInFlight: @escaping @Sendable (PendingOperation) -> Void
    ) async throws -> Claim? {
        try await SyncError.mapping {
            try await store.write { transaction -> Claim? in
                try lease.take(in: transaction)
                guard
                    var operation = try Self.firstToSend(after: sequence, tables: tables, skips: skips, in: transaction)
                else { return nil }
                markInFlight(operation)
                let item: JSONObject?
                if operation.kind == .delete {
                    item = operation.item ?? JSONObject(["id": .string(operation.itemId)])
                } else {
                    item = try transaction.lookup(table: operation.table, id: operation.itemId)
                }
                guard item != nil else { return Claim(operation: operation, item: nil) }
                operation.recordAttempt()
                try Self.save([operation], in: transaction)
                return Claim(operation: operation, item: item)
            }
        }
    }

    /// Whether any operation (of `tables`, when given) is one a push would send: one `skips` does not pass
    /// over.
    func hasOperationToSend(
        tables: Set<String>?, skips: @escaping @Sendable (PendingOperation, any StoreTransaction) throws -> Bool
    ) async throws -> Bool {
        try await read { try Self.firstToSend(after: 0, tables: tables, skips: skips, in: $0) != nil }
    }

    /// The first operation after `sequence` in queue order (of `tables`, when given) that `skips` does not
    /// pass over.
    private static func firstToSend(
        after sequence: Int, tables: Set<String>?,
        skips: (PendingOperation, any StoreTransaction) throws -> Bool, in transaction: any StoreTransaction
    ) throws -> PendingOperation? {
        var after = sequence
        while let candidate = try next(after: after, tables: tables, in: transaction) {
            if try !skips(candidate, transaction) { return candidate }
            after = candidate.sequence
        }
        return nil
    }

    /// Every operation (or those of some tables) in queue order.
    func operations(tables: Set<String>? = nil) async throws -> [PendingOperation] {
        try await read { try $0.queuedOperations(OperationSelection(tables: tables)) }
    }

    /// The number of operations (or of those of some tables).
    func count(tables: Set<String>? = nil) async throws -> Int {
        try await read { try $0.countQueuedOperations(OperationSelection(tables: tables)) }
    }

    /// The operation with this operation id, or `nil`.
    func operation(id: String) async throws -> PendingOperation? {
        try await read { try Self.operation(id: id, in: $0) }
    }

    /// Marks an operation as being sent (state `attempted`, one more attempt) just before the request.
    ///
    /// The version stays, so a push can still remove it on success; a local write meanwhile bumps it.
    func markAttempted(_ operation: PendingOperation) async throws -> PendingOperation {
        try await changeState(of: operation) { stored in stored.recordAttempt() }
    }

    /// Marks an operation as failed after an unsuccessful attempt.
    func markFailed(_ operation: PendingOperation) async throws -> PendingOperation {
        try await changeState(of: operation) { stored in stored.state = .failed }
    }

    /// Removes an operation (and its errors) after it succeeded, unless a local write changed it since
    /// it was read; returns whether it was removed.
    ///
    /// `alsoApply` runs in the same transaction, e.g. to upsert the server's item.
    @discardableResult
    func remove(
        _ operation: PendingOperation,
        alsoApply: @escaping @Sendable (any StoreTransaction) throws -> Void = { _ in }
    ) async throws -> Bool {
        try await SyncError.mapping {
            try await store.write { transaction in
                guard
                    let stored = try Self.operation(
                        table: operation.table,
                        itemId: operation.itemId,
                        in: transaction
                    ),
                    stored.id == operation.id, stored.version == operation.version
                else {
                    return false
                }
                try alsoApply(transaction)
                try remove([stored], in: transaction)
                return true
            }
        }
    }

    /// Replaces what an operation does (its kind and, for deletes, its item); it becomes pending again,
    /// its version goes up and its stored errors are removed. Returns the changed operation.
    func update(_ operation: PendingOperation, kind: OperationKind, item: JSONObject?) async throws
        -> PendingOperation
    {
        try await SyncError.mapping {
            try await store.write { transaction in
                var stored = try Self.current(operation, in: transaction)
                stored.kind = kind
                stored.item = kind == .delete ? item : nil
                stored.state = .pending
                stored.version += 1
                try OperationErrorRecord.deleteRecords(operationId: stored.id, in: transaction)
                try Self.save([stored], in: transaction)
                return stored
            }
        }
    }

    /// Removes an operation (and its errors) without sending it; the local row stays as it is.
    ///
    /// Returns the discarded operation, or throws ``SyncError/operationNotFound(id:)``.
    func discard(id: String) async throws -> PendingOperation {
        try await SyncError.mapping {
            try await store.write { transaction in
                guard let stored = try Self.operation(id: id, in: transaction) else {
                    throw SyncError.operationNotFound(id: id)
                }
                try settle([stored], as: .discarded, in: transaction)
                return stored
            }
        }
    }

    /// Runs a queue read in a store transaction, so it sees whole local writes only.
    private func read<Result: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> Result)
        async throws -> Result
    {
        try await SyncError.mapping { try await store.write(body) }
    }

    private func changeState(
        of operation: PendingOperation,
        _ change: @escaping @Sendable (inout PendingOperation) -> Void
    ) async throws -> PendingOperation {
        try await SyncError.mapping {
            try await store.write { transaction in
                var stored = try Self.current(operation, in: transaction)
                change(&stored)
                try Self.save([stored], in: transaction)
                return stored
            }
        }
    }
}
