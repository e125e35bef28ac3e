extension StoreOverview: CustomStringConvertible {
    /// The overview in one line, e.g. `2 pending operation(s), 0 push error(s), tables: TodoItem (5 row(s), …)`.
    public var description: String {
        let tables =
            self.tables.isEmpty ? "no tables" : "tables: " + self.tables.map(\.description).joined(separator: "; ")
        return
            "\(pendingOperations) pending operation(s), \(pushErrors) push error(s), \(tables) (schema \(schemaVersion))"
    }
}

extension TableOverview: CustomStringConvertible {
    /// The table in one line, e.g. `TodoItem (5 row(s), 2 pending, 0 error(s), last pull 2026-11-26T07:00:00.000Z)`;
    /// operations held for their parents are named when there are some (`2 pending (1 held for a parent)`).
    public var description: String {
        let held = heldOperations > 0 ? " (\(heldOperations) held for a parent)" : ""
        return "\(name) (\(rows) row(s), \(pendingOperations) pending\(held), \(pushErrors) error(s), "
            + "last pull \(lastPull?.iso8601 ?? "never"))"
    }
}

extension PullState: CustomStringConvertible {
    /// The pull state, e.g. `TodoItem, query id open: token 2026-…, last pull 2026-…`.
    public var description: String {
        let kind = queryId.map { "query id \($0)" } ?? "full pull"
        let token = deltaToken.map { "token \($0.iso8601), " } ?? ""
        return "\(table), \(kind): \(token)last pull \(lastPull?.iso8601 ?? "never")"
    }
}
