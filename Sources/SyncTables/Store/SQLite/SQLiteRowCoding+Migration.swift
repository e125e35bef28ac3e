@_spi(SyncTablesTools) import SyncTablesSQLite

extension SQLiteRowCoding {
    /// The column in which catalog layout 3 listed the columns that kept a row's long strings (their only
    /// copy); the step to layout 4 empties it.
    static let layoutThreeListColumn = "_column_only"

    /// Rows rewritten per step of ``migrateRows(of:in:)``: read, then written, so no statement writes the
    /// table while another reads it.
    private static let migrationBatch = 512

    /// Rewrites every row of a table of layout 3 or before in layout 4, inside the caller's transaction.
    ///
    /// An old row's `_json` holds the whole item but the strings its `_column_only` lists, which are in
    /// their columns as text, so ``object(id:json:kinds:columns:value:)`` reads it as it is. The columns keep
    /// their values (the projection has not changed); `_json` and `_kinds` are written anew.
    static func migrateRows(of table: SQLiteTableState, in database: Database) throws {
        let select = try database.prepare(
            "SELECT rowid, \(table.storedColumns) FROM \(table.quotedName) WHERE rowid > ? ORDER BY rowid LIMIT ?")
        let update = try database.prepare(
            "UPDATE \(table.quotedName) SET _json = ?, \(kindsColumn) = ?, \(layoutThreeListColumn) = NULL "
                + "WHERE rowid = ?")
        var after = Int64.min
        while true {
            var rows: [(rowid: Int64, object: JSONObject)] = []
            select.reset()
            try select.bind(after, at: 1)
            try select.bind(Int64(migrationBatch), at: 2)
            while try select.step() {
                let id = select.text(at: 1) ?? ""
                do {
                    let item = try select.withUTF8Bytes(at: 2) { json in
                        try Self.object(
                            id: id, json: json, kinds: select.text(at: 3), columns: table.rowColumns,
                            value: { select.value(at: SQLiteTableState.firstRowColumn + 1 + Int32($0)) })
                    }
                    rows.append((select.integer(at: 0), item))
                } catch {
                    throw StoreError.invalidStoredData(table: table.definition.name, id: id, message: "\(error)")
                }
            }
            select.reset()
            guard let last = rows.last else { return }
            for (rowid, object) in rows {
                var kinds = KindsBuilder()
                for (property, value) in object.properties where property != "id" {
                    if let column = table.column(for: property) { kinds.add(value, column: column.number) }
                }
                update.reset()
                try update.bind(utf8: storedJSON(object, hasColumn: { table.column(for: $0) != nil }), at: 1)
                try update.bind(kinds.sqliteValue, at: 2)
                try update.bind(rowid, at: 3)
                try update.run()
            }
            after = last.rowid
        }
    }
}
