extension GenericStoreTransaction {
    /// Looks every id up, then upserts the items when none is stored and no id repeats.
    package func insertNew(table: String, items: [JSONObject]) throws -> Bool {
        var ids = Set<RowID>()
        for item in items {
            let id = try ItemKey.id(of: item, table: table)
            guard ids.insert(RowID(id)).inserted, try lookup(table: table, id: id) == nil else { return false }
        }
        try upsert(table: table, items: items)
        return true
    }

    /// Ignores the serialized text: the store serializes as it always does.
    package func insertNew(table: String, items: [JSONObject], canonicalJSON: [[UInt8]]) throws -> Bool {
        try insertNew(table: table, items: items)
    }

    /// Inserts the rows, then queues the operations; when the queue refuses, deletes the rows again.
    package func insertNew(
        table: String, items: [JSONObject], canonicalJSON: [[UInt8]], queueing operations: [PendingOperation]
    ) throws -> Bool {
        let inserted =
            canonicalJSON.isEmpty
            ? try insertNew(table: table, items: items)
            : try insertNew(table: table, items: items, canonicalJSON: canonicalJSON)
        guard inserted else { return false }
        guard try queueNewOperations(operations) else {
            try delete(table: table, ids: items.map { try ItemKey.id(of: $0, table: table) })
            return false
        }
        return true
    }
}
