import Foundation
@_spi(SyncTablesTools) import SyncTablesCore

// Dead-lettered operations (see ``DeadOperation``): list, retry, discard, revert to the server's copy.
// Each change is one transaction; a local write to the item meanwhile revives the operation by itself.

extension SyncContext {
    /// The dead-lettered operations, in queue order, with their errors, latest attempts and, for a dead
    /// insert, the operations held until it is pushed (its children, see ``DeadOperation/heldChildren``).
    ///
    /// - Throws: ``SyncError/corruptSystemTable(table:message:)`` for a damaged system row, and ``SyncError/store(_:)``
    ///   when the store fails.
    public func deadOperations() async throws -> [DeadOperation] {
        let records = try await SyncError.mapping {
            let tables = try await store.tableDefinitions().map(\.name)
            return try await store.write { transaction in
                let retries = try RetryRecord.all(in: transaction)
                let dead = try transaction.queuedOperations(.all).filter { $0.state == .dead }
                let children = try ParentHolds.load(tables: tables, in: transaction).children(of: dead, in: transaction)
                return try dead.map { operation in
                    let error = try OperationErrorRecord.records(operationId: operation.id, in: transaction).last
                    return (operation, error, retries[operation.id]?.history ?? [], children[operation.id] ?? [])
                }
            }
        }
        return records.map { operation, error, history, children in
            DeadOperation(
                operation: operation, error: error.map { TableOperationError(record: $0, context: self) },
                attempts: history, heldChildren: children)
        }
    }

    /// The number of dead-lettered operations.
    ///
    /// - Throws: ``SyncError/corruptSystemTable(table:message:)`` for a damaged system row, and ``SyncError/store(_:)``
    ///   when the store fails.
    public func deadOperationCount() async throws -> Int {
        try await queueStatistics().deadOperations  // one pass, without reading each one's errors
    }

    /// Puts dead operations (all, or those with these operation ids) back in the queue with a fresh retry
    /// count; the next push sends them, and with a dead insert the children held for it, right after it.
    /// Returns how many were revived.
    ///
    /// - Throws: ``SyncError/operationNotFound(id:)`` when a named id is not a dead operation; then nothing
    ///   changes.
    @discardableResult
    public func retryDeadOperations(ids: Set<String>? = nil) async throws -> Int {
        let revived = try await changeDeadOperations(ids: ids) { operations, transaction in
            var revived = operations
            for index in revived.indices { revived[index].state = .pending }
            try OperationQueue.save(revived, in: transaction)
            try RetryRecord.delete(operationIds: operations.map(\.id), in: transaction)
            return operations
        }
        if !revived.isEmpty { eventBroadcaster.publish(.deadOperationsRetried(ids: revived.map(\.id))) }
        return revived.count
    }

    /// Drops dead operations (all, or those with these operation ids) and the local rows they would have
    /// written: the local change is given up. (Use ``revertToServer(operationId:)`` to keep the server's copy
    /// instead.) Returns how many were discarded.
    ///
    /// A dead insert may hold children (``DeadOperation/heldChildren``) that would wait forever for a parent
    /// that never reaches the server: with `includingChildren` they are discarded with it, and their own
    /// children in turn, the same way; without it the call throws and discards nothing.
    ///
    /// ```swift
    /// let dead = try await context.deadOperations()
    /// let parents = Set(dead.filter { !$0.heldChildren.isEmpty }.map(\.id))
    /// try await context.discardDeadOperations(ids: parents, includingChildren: true)
    /// ```
    ///
    /// - Throws: ``SyncError/operationNotFound(id:)`` when a named id is not a dead operation, and
    ///   ``SyncError/orphanedChildren(parent:children:)`` when a discarded insert holds children and
    ///   `includingChildren` is `false`; then nothing changes.
    @discardableResult
    public func discardDeadOperations(ids: Set<String>? = nil, includingChildren: Bool = false) async throws -> Int {
        let queue = self.queue
        let tables = try await SyncError.mapping { try await store.tableDefinitions().map(\.name) }
        let discarded = try await changeDeadOperations(ids: ids) { dead, transaction in
            let holds = try ParentHolds.load(tables: tables, in: transaction)
            let descendants = try holds.descendants(of: dead, in: transaction)
            if !includingChildren, !descendants.isEmpty {
                let children = try holds.children(of: dead, in: transaction)
                if let parent = dead.first(where: { children[$0.id] != nil }) {
                    throw SyncError.orphanedChildren(parent: parent, children: children[parent.id] ?? [])
                }
            }
            let operations = dead + descendants
            try queue.settle(operations, as: .discarded, in: transaction)
            for operation in operations where operation.kind != .delete {
                _ = try transaction.delete(table: operation.table, ids: [operation.itemId])
            }
            return operations
        }
        for operation in discarded { eventBroadcaster.publish(.operationDiscarded(operation)) }
        return discarded.count
    }

    /// Drops a dead operation's local change and takes the server's current copy of its item: fetched now,
    /// then stored with the operation removed in one transaction (a local write meanwhile wins and the
    /// operation stays). An item the server does not have, or has deleted, is deleted locally.
    ///
    /// - Throws: ``SyncError/operationNotFound(id:)`` when no dead operation has this id,
    ///   ``SyncError/operationChanged(id:expected:actual:)`` when a local write changed it meanwhile,
    ///   ``SyncError/noClient`` for a context without a client, ``SyncError/network(_:)``, ``SyncError/server(_:)`` or
    ///   ``SyncError/remote(_:)`` when the server's copy cannot be fetched, and ``SyncError/store(_:)`` when the store
    ///   fails. Nothing changes then.
    public func revertToServer(operationId: String) async throws {
        let client = try requireClient()
        guard let operation = try await queue.operation(id: operationId), operation.state == .dead else {
            throw SyncError.operationNotFound(id: operationId)
        }
        let serverItem: JSONObject?
        do {
            serverItem = try await client.lookup(table: operation.table, id: operation.itemId)
        } catch let error as HTTPStatusError where error.status == 404 || error.status == 410 {
            serverItem = nil
        } catch {
            throw SyncError(converting: error)
        }
        let queue = self.queue
        let settled = try await SyncError.mapping {
            try await store.write { transaction in
                let stored = try OperationQueue.current(operation, in: transaction)
                try queue.settle([stored], as: .resolved, in: transaction)
                if let serverItem, !serverItem.isTombstone {
                    try transaction.upsert(table: operation.table, items: [serverItem])
                } else {
                    _ = try transaction.delete(table: operation.table, ids: [operation.itemId])
                }
                return stored
            }
        }
        changeNotifier.notify(operation.table)
        eventBroadcaster.publish(.operationDiscarded(settled))
    }

    /// Applies `change` to the dead operations selected, in one transaction; returns the operations it
    /// changed.
    private func changeDeadOperations(
        ids: Set<String>?,
        _ change: @escaping @Sendable ([PendingOperation], any StoreTransaction) throws -> [PendingOperation]
    ) async throws -> [PendingOperation] {
        let changed = try await SyncError.mapping {
            try await store.write { transaction -> [PendingOperation] in
                let dead = try transaction.queuedOperations(.all).filter {
                    $0.state == .dead && (ids?.contains($0.id) ?? true)
                }
                // All or nothing: a mistyped id must not leave the others changed.
                if let missing = ids?.subtracting(dead.map(\.id)).sorted().first {
                    throw SyncError.operationNotFound(id: missing)
                }
                return try change(dead, transaction)
            }
        }
        for table in Set(changed.map(\.table)) { changeNotifier.notify(table) }
        return changed
    }
}
