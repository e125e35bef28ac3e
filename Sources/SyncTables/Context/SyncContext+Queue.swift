/// Public inspection and control of the operation queue.
extension SyncContext {
    /// The number of operations waiting to be pushed, across all tables.
    ///
    /// - Throws: ``SyncError/store(_:)`` when the store fails.
    public func pendingOperationCount() async throws -> Int {
        try await queue.count()
    }

    /// The number of operations waiting to be pushed for one table.
    ///
    /// - Throws: ``SyncError/store(_:)`` when the store fails.
    public func pendingOperationCount(table: String) async throws -> Int {
        try await queue.count(tables: [table])
    }

    /// The operations waiting to be pushed, in push order; only those of `table` when it is given.
    ///
    /// ```swift
    /// for operation in try await context.pendingOperations(table: "TodoItem") {
    ///     print(operation.kind, operation.itemId)
    /// }
    /// ```
    ///
    /// - Throws: ``SyncError/corruptSystemTable(table:message:)`` for a damaged system row, and ``SyncError/store(_:)``
    ///   when the store fails.
    public func pendingOperations(table: String? = nil) async throws -> [PendingOperation] {
        try await queue.operations(tables: table.map { [$0] })
    }

    /// Removes one pending operation (and its stored errors) without sending it; the local row is kept
    /// as it is, so the change stays local until the item is written again.
    ///
    /// Returns the discarded operation.
    ///
    /// - Throws: ``SyncError/operationNotFound(id:)`` when no queued operation has this id, and ``SyncError/store(_:)``
    ///   when the store fails.
    @discardableResult
    public func discardPendingOperation(id: String) async throws -> PendingOperation {
        let discarded = try await queue.discard(id: id)
        eventBroadcaster.publish(.operationDiscarded(discarded))
        return discarded
    }
}
