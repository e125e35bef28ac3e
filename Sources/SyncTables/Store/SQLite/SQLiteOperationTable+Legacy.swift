import SyncTablesSQLite

extension SQLiteOperationTable {
    /// The JSON row table that held the queue in catalog layout 1.
    static let legacyTable = SystemTables.operations

    /// Moves the operations of a layout-1 store (JSON rows of `__operations`) into the relational table,
    /// then drops the old table and its catalog entries. Runs inside the catalog's migration transaction, so
    /// a failure (an unreadable row, a full disk) leaves the file as it was.
    static func adoptLegacyRows(in database: Database) throws {
        let key = legacyTable.lowercased()
        let known = try database.scalar("SELECT COUNT(*) FROM __synctables_tables WHERE key = ?", [.text(key)])
        guard case .integer(let count) = known, count > 0 else { return }

        let rows = try database.prepare("SELECT _json FROM \"\(legacyTable)\"")
        var operations: [PendingOperation] = []
        while try rows.step() {
            let row: JSONObject
            do {
                row = try rows.withUTF8Bytes(at: 0) { try StoreCoding.object(utf8: $0) }
            } catch {
                throw SyncError.corruptSystemTable(
                    table: legacyTable, message: "a queued operation is not JSON: \(error)")
            }
            operations.append(try PendingOperation(row: row))
        }
        rows.reset()
        try save(operations, in: database)
        try database.execute("DROP TABLE \"\(legacyTable)\"")
        try database.run("DELETE FROM __synctables_tables WHERE key = ?", [.text(key)])
        try database.run("DELETE FROM __synctables_columns WHERE table_key = ?", [.text(key)])
    }
}
