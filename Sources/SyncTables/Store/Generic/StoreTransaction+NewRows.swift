extension StoreTransaction {
    /// Looks every id up, then upserts the items when none is stored and no id repeats.
    public func insertNew(table: String, items: [JSONObject]) throws -> Bool {
        var ids = Set<RowID>()
        for item in items {
            let id = try ItemKey.id(of: item, table: table)
            guard ids.insert(RowID(id)).inserted, try lookup(table: table, id: id) == nil else { return false }
        }
        try upsert(table: table, items: items)
        return true
    }

    /// Ignores the serialized text: the store serializes as it always does.
    public func insertNew(table: String, items: [JSONObject], canonicalJSON: [[UInt8]]) throws -> Bool {
        try insertNew(table: table, items: items)
    }
}
