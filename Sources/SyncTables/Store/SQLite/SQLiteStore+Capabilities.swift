extension SQLiteStore: CapableStore {
    /// The store runs on a thread of its own, keeps a column for every property its tables ever had, and
    /// (unless in memory) has a file that attachments go beside.
    package nonisolated var declaredCapabilities: StoreCapabilities {
        StoreCapabilities(
            dedicatedThread: StoreCapabilities.DedicatedThread { SQLiteRowCoding.storedJSON($0) },
            propertyNames: { [self] table in try await propertyNames(table: table) },
            fileLocation: fileLocation)
    }

    /// The top-level properties a table has a projected column for (never `id`); empty for an unknown table.
    ///
    /// Every property any row ever had has its column, and columns are never dropped. Read in a snapshot of
    /// the file, so columns another process added count. The reference server also reads it, once per
    /// table, to cap how many properties a table may grow.
    @_spi(SyncTablesTools) public func propertyNames(table: String) throws -> Set<String> {
        try mappingStoreErrors { try openStorage().propertyNames(table: table) }
    }
}

extension SQLiteStorage {
    /// See ``SQLiteStore/propertyNames(table:)``.
    func propertyNames(table name: String) throws -> Set<String> {
        try reading {
            guard let table = try? catalog.table(named: name) else { return [] }
            return Set(table.columns.keys)
        }
    }
}
