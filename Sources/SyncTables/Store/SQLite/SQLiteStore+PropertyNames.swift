extension SQLiteStore {
    /// The top-level properties a table has a projected column for (never `id`); empty for an unknown table.
    ///
    /// The reference server reads it once per table to cap how many properties a table may grow.
    package func propertyNames(table: String) throws -> Set<String> {
        guard let state = try? openStorage().catalog.table(named: table) else { return [] }
        return Set(state.columns.keys)
    }
}
