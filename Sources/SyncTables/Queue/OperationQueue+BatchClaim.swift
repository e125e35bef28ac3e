extension OperationQueue {
    /// Takes the next operations for sending in one batch, in one transaction, each exactly as
    /// ``claimNext(after:tables:lease:skips:markInFlight:)`` takes one: the push lease is renewed, each
    /// operation is marked in flight and attempted (unless its local row is missing), in queue order.
    ///
    /// Stops at `limit` operations, or before the operation that would take the batch past `byteLimit`
    /// (as `size` counts it), but always takes at least one.
    func claimBatch(
        after sequence: Int,
        tables: Set<String>?,
        lease: PushLease,
        limit: Int,
        byteLimit: Int,
        skips: @escaping @Sendable (PendingOperation, any StoreTransaction) throws -> Bool,
        size: @escaping @Sendable (PendingOperation, JSONObject) -> Int,
        markInFlight: @escaping @Sendable (PendingOperation) -> Void
    ) async throws -> [Claim] {
        try await SyncError.mapping {
            try await store.write { transaction -> [Claim] in
                try lease.take(in: transaction)
                var claims: [Claim] = []
                var bytes = 0
                var after = sequence
                var candidates: [PendingOperation] = []
                while claims.count < limit {
                    if candidates.isEmpty {
                        let selection = OperationSelection(tables: tables, afterSequence: after, limit: limit)
                        candidates = Array(try transaction.queuedOperations(selection).reversed())
                    }
                    guard var operation = candidates.popLast() else { break }
                    after = operation.sequence
                    if try skips(operation, transaction) { continue }
                    let item: JSONObject?
                    if operation.kind == .delete {
                        item = operation.item ?? JSONObject(["id": .string(operation.itemId)])
                    } else {
                        item = try transaction.lookup(table: operation.table, id: operation.itemId)
                    }
                    if let item {
                        let cost = size(operation, item)
                        if !claims.isEmpty, bytes + cost > byteLimit { break }
                        bytes += cost
                    }
                    markInFlight(operation)
                    guard let item else {
                        claims.append(Claim(operation: operation, item: nil))
                        continue
                    }
                    operation.recordAttempt()
                    try Self.save([operation], in: transaction)
                    claims.append(Claim(operation: operation, item: item))
                }
                return claims
            }
        }
    }
}
