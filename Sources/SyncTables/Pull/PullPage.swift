import Logging
@_spi(SyncTablesTools) import SyncTablesCore

/// One page of server records applied to the local table in one transaction, with the pull's token
///: records with a pending local operation are skipped, `deleted: true` deletes.
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

    struct Result: Sendable {
        var upserted = 0
        var deleted = 0
        var skippedPending = 0
        var skippedInvalid = 0
        /// Records at the boundary the store already held in that version: neither applied nor counted
        /// as received.
        var unchanged = 0
        /// Whether any row changed, so observers have something to see.
        var changedRows: Bool { upserted + deleted > 0 }
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
        let pending = try Self.pendingItemIds(table: table, among: ids, in: transaction)
        var upserts: [JSONObject] = []
        var deletes: [String] = []
        for (id, record) in valid {
            if try isAlreadyStored(record, id: id, in: transaction) {
                result.unchanged += 1
            } else if pending.contains(id) {
                result.skippedPending += 1
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

    private static func pendingItemIds(
        table: String,
        among ids: [String],
        in transaction: any StoreTransaction
    ) throws -> Set<String> {
        guard !ids.isEmpty else { return [] }
        let queued = try transaction.queuedOperations(OperationSelection(tables: [table], itemIds: Set(ids)))
        return Set(queued.map(\.itemId))
    }
}
