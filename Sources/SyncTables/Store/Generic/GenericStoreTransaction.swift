/// The fast paths of a transaction that has none of its own (see ``StoreTransactionFastPaths``), done
/// through its public members: new rows are looked up before they are written, and the operation queue is
/// one JSON row per operation in the `__operations` table. Any store gets a working queue from it.
package struct GenericStoreTransaction: StoreTransactionFastPaths {
    let base: any StoreTransaction

    /// The generic fast paths of `base`, done through its public members.
    package init(base: any StoreTransaction) {
        self.base = base
    }

    package func defineTable(_ definition: TableDefinition) throws {
        try base.defineTable(definition)
    }
    package func read(_ query: StoreQuery) throws -> [JSONObject] { try base.read(query) }
    package func count(_ query: StoreQuery) throws -> Int { try base.count(query) }
    package func lookup(table: String, id: String) throws -> JSONObject? {
        try base.lookup(table: table, id: id)
    }
    package func upsert(table: String, items: [JSONObject]) throws {
        try base.upsert(table: table, items: items)
    }
    @discardableResult
    package func delete(table: String, ids: [String]) throws -> Int { try base.delete(table: table, ids: ids) }
    @discardableResult
    package func delete(_ query: StoreQuery) throws -> Int { try base.delete(query) }
}
