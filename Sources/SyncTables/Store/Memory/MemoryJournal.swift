/// What a ``MemoryStore`` transaction changed, kept so a body that throws can be undone in place: writing to
/// a copy of the tables instead made every write copy the whole table it touched.
struct MemoryJournal: Sendable {
    /// A table as it was before the transaction first touched it.
    struct TableBefore: Sendable {
        /// `nil` when the transaction created the table.
        var definition: TableDefinition?
        var propertyNames: Set<String>
        /// Each changed row's value before its first change; `nil` for a row the transaction added.
        var rows: [RowID: JSONObject?] = [:]
    }

    /// By table key (see ``TableName``).
    var tables: [String: TableBefore] = [:]
}
