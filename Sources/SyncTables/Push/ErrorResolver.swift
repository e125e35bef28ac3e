@_spi(SyncTablesTools) import SyncTablesCore

// Resolving push errors: each resolution is one transaction guarded by the operation's edit counter, so
// resolving a stale error can never overwrite a newer local edit.

/// Reads the push errors stored in the queue and applies resolutions to them, for the app
/// (``SyncContext/resolve(_:with:)``) and for a push's conflict policy alike.
struct ErrorResolver: Sendable {
    let store: any LocalStore
    let queue: OperationQueue
    /// Wakes the live queries of a table a resolution changed.
    let notifier: Broadcaster<Void>
    /// The context the errors handed out belong to (``TableOperationError/context``).
    let context: SyncContext

    /// Applies a resolution to a push error.
    ///
    /// - Throws: ``SyncError/operationNotFound(id:)`` when the operation is gone,
    ///   ``SyncError/operationChanged(id:expected:actual:)`` when it was edited since the error,
    ///   ``SyncError/invalidQuery(_:)`` when a resolution's item has another id than the error's item, and
    ///   ``SyncError/store(_:)`` when the store fails. Nothing changes then.
    func apply(_ resolution: ConflictResolution, to error: TableOperationError) async throws {
        if case .unresolved = resolution { return }
        let queue = self.queue
        let table = error.table
        let itemId = error.itemId
        try await SyncError.mapping {
            try await store.write { transaction in
                guard var operation = try OperationQueue.operation(id: error.operationId, in: transaction) else {
                    throw SyncError.operationNotFound(id: error.operationId)
                }
                guard operation.version == error.operationVersion else {
                    throw SyncError.operationChanged(
                        id: operation.id, expected: error.operationVersion, actual: operation.version)
                }
                try OperationErrorRecord.deleteRecords(operationId: operation.id, in: transaction)
                switch resolution {
                case .cancelAndUpdateItem(let item):
                    guard item["id"] == .string(itemId) else {
                        throw SyncError.invalidQuery("the resolving item's id must be '\(itemId)'")
                    }
                    try queue.settle([operation], as: .resolved, in: transaction)
                    if item.isTombstone {
                        try transaction.delete(table: table, ids: [itemId])
                    } else {
                        try transaction.upsert(table: table, items: [item])
                    }
                case .cancelAndDiscardItem:
                    try queue.settle([operation], as: .resolved, in: transaction)
                    try transaction.delete(table: table, ids: [itemId])
                case .keepOperation(let item), .retry(let item):
                    guard item["id"] == .string(itemId) else {
                        throw SyncError.invalidQuery("the resolving item's id must be '\(itemId)'")
                    }
                    // An insert the server refused as a duplicate can only go on as an update.
                    if operation.kind == .insert, error.status == 409 { operation.kind = .update }
                    operation.state = .pending
                    operation.version += 1
                    if operation.kind == .delete {
                        operation.item = item
                    } else {
                        let existing = try transaction.lookup(table: table, id: itemId)
                        var row = ItemCoding.rowForUpdate(item, existing: existing)
                        row["version"] = item["version"]
                        try transaction.upsert(table: table, items: [row])
                    }
                    try OperationQueue.save([operation], in: transaction)
                    try queue.history.record(operation, .resolved, in: transaction)
                case .unresolved:
                    break  // returned early above
                }
            }
        }
        notifier.notify(table)
    }

    /// The errors a push recorded, oldest first.
    func errors(pushId: String) async throws -> [TableOperationError] {
        let filter = FilterExpression.comparison(
            .equal, .property(OperationErrorRecord.Field.pushId), .value(.string(pushId)))
        let rows = try await store.read(
            StoreQuery(
                table: SystemTables.errors, filter: filter,
                ordering: [SortDescriptor(OperationErrorRecord.Field.createdAt)]))
        return try rows.map { TableOperationError(record: try OperationErrorRecord(row: $0), context: context) }
    }

    /// The error stored for an operation, if any.
    func error(operationId: String) async throws -> TableOperationError? {
        let filter = FilterExpression.comparison(
            .equal, .property(OperationErrorRecord.Field.operationId), .value(.string(operationId)))
        return try await store.read(StoreQuery(table: SystemTables.errors, filter: filter, limit: 1))
            .first.map { TableOperationError(record: try OperationErrorRecord(row: $0), context: context) }
    }
}
