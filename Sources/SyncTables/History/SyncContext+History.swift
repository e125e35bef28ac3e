// The operation history: what became of each operation, for an app's "sync activity" screen.

extension SyncContext {
    /// The latest operation history entries, newest first: of one table (or all), at most `limit` of them.
    ///
    /// Every push outcome (pushed, failed, dead-lettered) and every discard or resolution adds an entry in the
    /// transaction that commits it, from this process or any other using the same store. The history keeps
    /// what ``Configuration/historyRetention`` allows. Refresh an activity screen on the ``events`` that report outcomes
    /// (``SyncEvent/operationPushed(table:id:kind:)``, ``SyncEvent/operationFailed(table:id:kind:status:)``,
    /// ``SyncEvent/operationDiscarded(_:)``, ``SyncEvent/pushFinished(status:pushed:failed:)``).
    ///
    /// ```swift
    /// for entry in try await context.history(table: "TodoItem", limit: 20) {
    ///     print(entry.recordedAt, entry.itemId, entry.outcome, entry.status.map { "HTTP \($0)" } ?? "")
    /// }
    /// ```
    ///
    /// - Throws: ``SyncError/invalidQuery(_:)`` for a negative limit, ``SyncError/corruptSystemTable(table:message:)``
    ///   for a damaged system row, and ``SyncError/store(_:)`` when the store fails.
    public func history(table: String? = nil, limit: Int? = nil) async throws -> [OperationHistoryEntry] {
        if let limit, limit < 0 { throw SyncError.invalidQuery("the history limit must not be negative, not \(limit)") }
        let rows = try await SyncError.mapping {
            try await store.read(OperationHistory.query(table: table, limit: limit))
        }
        return try rows.map { try OperationHistoryEntry(row: $0) }
    }

    /// How much history is kept (``Configuration/historyRetention``).
    public nonisolated var historyRetention: OperationHistoryRetention { configuration.historyRetention }
}
