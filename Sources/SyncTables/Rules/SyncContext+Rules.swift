// A table's rules: stored when a `SyncRulesProvider` type opens its table, or set by hand for a table whose
// items have no such type.

extension SyncContext {
    /// Sets the ``SyncRules`` of a table whose items have no ``SyncRulesProvider`` type (a table opened as
    /// `JSONObject`, say). Every later push of the store follows them; a type that declares rules replaces
    /// them when it opens the table.
    ///
    /// ```swift
    /// try await context.setRules(SyncRules(fieldRules: ["quantity": .counter]), forTable: "stock")
    /// ```
    ///
    /// - Throws: ``SyncError/invalidTableName(_:reason:)`` for names that are not identifiers or that start with
    ///   `__`, and ``SyncError/store(_:)`` when the store fails.
    public func setRules(_ rules: SyncRules, forTable table: String) async throws {
        try SyncTableName.validate(table)
        let name = definition(of: table)?.name ?? table
        try await storeRules(rules, for: name)
    }

    /// The rules stored for a table, ``SyncRules/none`` when it has none.
    ///
    /// - Throws: ``SyncError/store(_:)`` when the store fails, and
    ///   ``SyncError/corruptSystemTable(table:message:)`` when the stored rules are damaged.
    public func rules(forTable table: String) async throws -> SyncRules {
        try await TableRulesRecord.rules(of: table, in: store)
    }

    /// Keeps `rules` as the table's rules in the store, unless they are stored already.
    func storeRules(_ rules: SyncRules, for table: String) async throws(SyncError) {
        let key = table.lowercased()
        guard storedRules[key] != rules else { return }
        let record = TableRulesRecord(table: table, rules: rules)
        try await SyncError.mapping {
            try await store.write { transaction in
                guard try TableRulesRecord.rules(of: table, in: transaction) != rules else { return }
                try record.save(in: transaction)
            }
        }
        storedRules[key] = rules
    }
}
