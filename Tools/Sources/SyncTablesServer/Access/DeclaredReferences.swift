@_spi(SyncTablesTools) import SyncTablesCore

// The foreign-key check of declared tables (``TableDeclaration/references``).

extension TableService {
    /// Refuses with 422 Unprocessable Content a write of `table` that sets a declared reference to an id
    /// naming no row of the parent table the caller may read: none, a soft-deleted one, or one outside the
    /// caller's scope (another user's row behaves as if it did not exist). `null` names no parent and passes,
    /// and so does an update that leaves the reference alone.
    ///
    /// Not 400 (the body is well formed and of the declared types), not 404 (the row written may well exist),
    /// and never 409 or 412, which clients take for a conflict with the row itself and try to resolve.
    ///
    /// The parent is read before the write's own read-decide-write, not inside it: the check keeps a client
    /// from writing a child before its parent; it does not stop another request deleting the parent meanwhile.
    func checkReferences(of body: JSONObject, table: String, declaration: TableDeclaration, caller: Caller)
        async throws
    {
        for (column, parent) in declaration.references.sorted(by: { $0.key < $1.key }) {
            guard case .string(let parentId)? = body[column] else { continue }
            let refused = ServerError(
                .unprocessableContent,
                "The property '\(column)' of table '\(table)' must name a row of table '\(parent)'; "
                    + "there is no row '\(parentId)'.")
            guard let parentDeclaration = declarations?.tables[parent],
                let scope = try? RowScope(parentDeclaration.access, caller: caller, table: parent)
            else { throw refused }
            try await ensureTable(parent)
            guard let row = try await storage.lookup(table: parent, id: parentId), scope.contains(row),
                !row.isTombstone
            else { throw refused }
        }
    }
}
