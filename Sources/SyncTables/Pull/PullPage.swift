import Logging
@_spi(SyncTablesTools) import SyncTablesCore

/// One page of server records applied to the local table in one transaction, with the pull's token:
/// records with a pending local operation are skipped (or, in a table that merges fields, merged into the
/// pending update: see ``PullRebase``), `deleted: true` deletes.
struct PullPage: Sendable {
    let table: String
    let records: [JSONObject]
    /// The incremental token to store with the page, under this config key.
    let token: (key: String, value: DeltaToken)?
    /// The watermark a page without keysets was requested from (`updatedAt ge` it; see the *Wire protocol*
    /// article, section *Incremental pull*): records stamped exactly then come again, and the ones the store
    /// already holds are not applied twice. `nil` for keyset pages.
    var boundary: Timestamp?
    /// Where the page is logged once applied (the sync engine's logger), if anywhere.
    var logger: Logger?
    /// Merges records into pending updates, in a table that merges fields.
    var rebase: PullRebase?

    struct Result: Sendable {
        var upserted = 0
        var deleted = 0
        var skippedPending = 0
        var skippedInvalid = 0
        /// Records merged into a pending update.
        var merged = 0
        /// Records at the boundary the store already held in that version: neither applied nor counted
        /// as received.
        var unchanged = 0
        /// Whether any row changed, so observers have something to see.
        var changedRows: Bool { upserted + deleted + merged > 0 }
    }

    func apply(in transaction: any StoreTransaction) throws -> Result {
        var result = Result()
        var ids: [String] = []
        var valid: [(id: String, record: JSONObject)] = []
        for record in records {
            guard case .string(let id)? = record["id"], ItemID.isValid(id) else {
                result.skippedInvalid += 1
                continue
            }
            ids.append(id)
            valid.append((id, record))
        }
        let pending = try Self.pendingOperations(table: table, among: ids, in: transaction)
        var upserts: [JSONObject] = []
        var deletes: [String] = []
        for (id, record) in valid {
            if try isAlreadyStored(record, id: id, in: transaction) {
                result.unchanged += 1
            } else if let operation = pending[id] {
                if try rebased(operation, onto: record, in: transaction) {
                    result.merged += 1
                } else {
                    result.skippedPending += 1
                }
            } else if record.isTombstone {
                deletes.append(id)
            } else {
                upserts.append(record)
            }
        }
        result.deleted = try transaction.delete(table: table, ids: deletes)
        try transaction.upsert(table: table, items: upserts)
        result.upserted = upserts.count
        if let token {
            try SystemConfig.setValue(token.value.storedValue, for: token.key, in: transaction)
        }
        return result
    }

    /// Whether `record` is a boundary record the store holds already: the same `version` in the row, or
    /// a tombstone of a row that is gone.
    private func isAlreadyStored(_ record: JSONObject, id: String, in transaction: any StoreTransaction) throws
        -> Bool
    {
        guard let boundary, record["updatedAt"]?.stringValue.flatMap(Timestamp.init(parsing:)) == boundary else {
            return false
        }
        let stored = try transaction.lookup(table: table, id: id)
        if record.isTombstone { return stored == nil }
        guard case .string(let version)? = record["version"], let stored else { return false }
        return stored["version"]?.stringValue == version
    }

    /// Merges a live `record` into the pending update of its item, when the table rebases; whether it did.
    private func rebased(_ operation: PendingOperation, onto record: JSONObject, in transaction: any StoreTransaction)
        throws -> Bool
    {
        guard let rebase, rebase.applies(to: operation), !record.isTombstone,
            let row = try transaction.lookup(table: table, id: operation.itemId)
        else { return false }
        return try rebase.rebase(operation, row: row, onto: record, in: transaction)
    }

    /// The operations queued for these items, by item id.
    private static func pendingOperations(
        table: String,
        among ids: [String],
        in transaction: any StoreTransaction
    ) throws -> [String: PendingOperation] {
        guard !ids.isEmpty else { return [:] }
        let queued = try transaction.queuedOperations(OperationSelection(tables: [table], itemIds: Set(ids)))
        return Dictionary(queued.map { ($0.itemId, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
