extension OperationQueue {
    /// Every pending operation of one table, in queue order, read inside a transaction.
    static func operations(table: String, in transaction: any StoreTransaction) throws -> [PendingOperation] {
        let rows = try transaction.read(
            StoreQuery(
                table: SystemTables.operations,
                filter: equal(PendingOperation.Field.tableName, .string(table)),
                ordering: [SortDescriptor(PendingOperation.Field.sequence)]
            )
        )
        return try rows.map { try PendingOperation(row: $0) }
    }
}
