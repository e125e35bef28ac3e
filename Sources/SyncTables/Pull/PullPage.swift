import Logging

/// One page of server records applied to the local table in one transaction, with the pull's token
///: records with a pending local operation are skipped, `deleted: true` deletes.
struct PullPage: Sendable {
    let table: String
    let records: [JSONObject]
    /// The incremental token to store with the page, under this config key.
    let token: (key: String, value: DeltaToken)?
    /// Where the page is logged once applied (the sync engine's logger), if anywhere.
    var logger: Logger?

    struct Result: Sendable {
        var upserted = 0
        var deleted = 0
        var skippedPending = 0
        var skippedInvalid = 0
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
            if pending.contains(id) {
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
