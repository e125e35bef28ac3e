// The app's side of push errors: list them, resolve one.

extension SyncContext {
    /// The push errors stored for a table (or all tables), oldest first; they survive restarts.
    ///
    /// - Throws: ``SyncError/corruptSystemTable(table:message:)`` for a damaged system row, and ``SyncError/store(_:)``
    ///   when the store fails.
    public func pushErrors(table: String? = nil) async throws -> [TableOperationError] {
        let records = try await SyncError.mapping {
            try await store.write { transaction in try OperationErrorRecord.records(table: table, in: transaction) }
        }
        return records.map { TableOperationError(record: $0, context: self) }
    }

    /// Applies a resolution to a push error.
    ///
    /// - Throws: ``SyncError/operationNotFound(id:)`` when the operation is gone,
    ///   ``SyncError/operationChanged(id:expected:actual:)`` when it was edited since the error,
    ///   ``SyncError/invalidQuery(_:)`` when a resolution's item has another id than the error's item, and
    ///   ``SyncError/store(_:)`` when the store fails. Nothing changes then.
    public func resolve(_ error: TableOperationError, with resolution: ConflictResolution) async throws {
        try await resolver.apply(resolution, to: error)
    }
}
