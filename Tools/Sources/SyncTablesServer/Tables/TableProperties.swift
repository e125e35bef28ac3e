import SyncTablesCore

/// The property names each table has, so a write that would grow a table past
/// ``SyncServerConfiguration/maxTableProperties`` is refused with 400 before it reaches the store (where every
/// new property is a schema change, and thousands of them would hold up every other request).
actor TableProperties {
    let limit: Int
    private var names: [String: Set<String>] = [:]

    init(limit: Int) {
        self.limit = limit
    }

    /// Whether the table's names are known yet.
    func isKnown(_ table: String) -> Bool { names[table] != nil }

    /// Starts the table's set from what the store already holds.
    func learn(_ table: String, names existing: Set<String>) {
        names[table, default: Self.alwaysPresent].formUnion(existing)
    }

    /// Adds the item's properties to the table's set, or throws 400 when the set would exceed the limit.
    func admit(_ item: JSONObject, into table: String) throws(ServerError) {
        let known = names[table] ?? Self.alwaysPresent
        guard item.properties.keys.contains(where: { !known.contains($0) }) else { return }
        let grown = known.union(item.properties.keys)
        guard grown.count <= limit else {
            throw ServerError(
                .badRequest,
                "The table '\(table)' would have \(grown.count) properties with this item; a table may have at most "
                    + "\(limit) (sync-server --max-table-properties)."
            )
        }
        names[table] = grown
    }

    /// The id and the system properties the server adds to every item.
    static let alwaysPresent: Set<String> = ["id", "version", "createdAt", "updatedAt", "deleted"]
}
