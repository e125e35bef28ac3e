/// The default operation queue storage: one JSON row per operation in the `__operations` table, keyed by
/// `<table>|<itemId>` and indexed by `(tableName, itemId)` and `sequence`, written and read through the
/// transaction's generic table members. Any store gets a working queue from it.
extension GenericStoreTransaction {
    /// Defines the `__operations` table.
    package func prepareOperationQueue() throws {
        try defineTable(SystemTables.operationsDefinition)
    }

    /// Looks the operation up by its row key `<table>|<itemId>`.
    package func queuedOperation(table: String, itemId: String) throws -> PendingOperation? {
        let key = PendingOperation.rowKey(table: table, itemId: itemId)
        guard let row = try lookup(table: SystemTables.operations, id: key) else { return nil }
        return try PendingOperation(row: row)
    }

    /// Reads the selected rows, ordered by `sequence`.
    package func queuedOperations(_ selection: OperationSelection) throws -> [PendingOperation] {
        let query = StoreQuery(
            table: SystemTables.operations,
            filter: OperationRowFilter.expression(for: selection),
            ordering: [SortDescriptor(PendingOperation.Field.sequence)],
            limit: selection.limit
        )
        return try read(query).map { try PendingOperation(row: $0) }
    }

    /// Counts the selected rows.
    package func countQueuedOperations(_ selection: OperationSelection) throws -> Int {
        let query = StoreQuery(
            table: SystemTables.operations,
            filter: OperationRowFilter.expression(for: selection),
            limit: selection.limit
        )
        return try count(query)
    }

    /// Reads the row with the highest `sequence`.
    package func highestQueuedSequence() throws -> Int? {
        let query = StoreQuery(
            table: SystemTables.operations,
            ordering: [SortDescriptor(PendingOperation.Field.sequence, ascending: false)],
            limit: 1
        )
        return try read(query).first.map { try PendingOperation(row: $0).sequence }
    }

    /// Upserts one row per operation.
    package func saveQueuedOperations(_ operations: [PendingOperation]) throws {
        guard !operations.isEmpty else { return }
        try upsert(table: SystemTables.operations, items: operations.map(\.row))
    }

    /// Looks every item's operation up, then saves the operations when none is queued and no item repeats.
    package func queueNewOperations(_ operations: [PendingOperation]) throws -> Bool {
        var items = Set<RowID>()
        for operation in operations {
            let key = PendingOperation.rowKey(table: operation.table, itemId: operation.itemId)
            guard items.insert(RowID(key)).inserted,
                try queuedOperation(table: operation.table, itemId: operation.itemId) == nil
            else { return false }
        }
        try saveQueuedOperations(operations)
        return true
    }

    /// Deletes the operations' rows by key.
    package func removeQueuedOperations(_ operations: [PendingOperation]) throws {
        guard !operations.isEmpty else { return }
        let keys = operations.map { PendingOperation.rowKey(table: $0.table, itemId: $0.itemId) }
        try delete(table: SystemTables.operations, ids: keys)
    }
}

/// Turns an ``OperationSelection`` into a filter over `__operations` rows (everything but its limit).
enum OperationRowFilter {
    static func expression(for selection: OperationSelection) -> FilterExpression? {
        typealias Field = PendingOperation.Field
        var conditions: [FilterExpression] = []
        if let after = selection.afterSequence {
            conditions.append(.comparison(.greaterThan, .property(Field.sequence), .value(.integer(Int64(after)))))
        }
        if let tables = selection.tables {
            conditions.append(.isIn(.property(Field.tableName), tables.sorted().map { .value(.string($0)) }))
        }
        if let itemIds = selection.itemIds {
            conditions.append(.isIn(.property(Field.itemId), itemIds.sorted().map { .value(.string($0)) }))
        }
        if let operationId = selection.operationId {
            conditions.append(.comparison(.equal, .property(Field.operationId), .value(.string(operationId))))
        }
        return conditions.reduce(nil) { combined, condition in combined.map { .and($0, condition) } ?? condition }
    }
}
