import Foundation

/// One wipe of everything a user left in the store: the rows of every user table, the operation queue (dead
/// operations included), push errors, retry state, the operation history, every pull's token and time, the
/// engine's backoff, a push lease left behind and the attachments' records, all in one store transaction, so a crash leaves either all
/// of it or none. The caller holds the context's sync action.
///
/// What survives is what does not belong to a user: the table definitions (a new user's writes work at
/// once), the layout version, and the two counters that keep operation sequences and history numbers
/// growing (``survivingConfigKeys``).
struct Wipe: Sendable {
    let store: any LocalStore
    /// The lease another pusher of the same store file would hold.
    let pushLease: PushLease
    /// Where the wipe's event goes.
    let events: Broadcaster<SyncEvent>
    /// Wakes the live queries of every table.
    let notifier: Broadcaster<Void>
    /// The attachments' files, removed once their records (and keys) are gone.
    let blobs: BlobFolder

    /// The `__config` rows a wipe keeps: the layout version and the counters that must never go back.
    static let survivingConfigKeys: Set<String> = [
        SystemConfig.schemaVersionKey, SystemConfig.operationSequenceKey, SystemConfig.historySequenceKey,
    ]

    /// The system tables a wipe empties with a plain delete (`__errors`, `__retries`, `__history`): the queue
    /// and `__config` have their own rules.
    private static func isEmptiedWhole(_ table: String) -> Bool {
        table != SystemTables.config && table != SystemTables.operations
    }

    /// Wipes once; throws ``SyncError/pushInProgress(owner:)`` while another pusher of the store holds the
    /// push lease, having changed nothing.
    func run() async throws -> WipeSummary {
        // A store that cannot list its tables inside a transaction wipes those it lists just before.
        let listed = try await SyncError.mapping { try await store.tableDefinitions() }
        let summary = try await SyncError.mapping {
            try await store.write { transaction in try apply(listed: listed, in: transaction) }
        }
        // After the commit: a crash before this leaves files without records (encrypted ones without keys),
        // which the next collection removes.
        blobs.removeAll()
        for table in summary.tables { notifier.notify(table) }
        events.publish(.storeWiped(summary: summary))
        return summary
    }

    /// Wipes, waiting (polling `interval`) while another pusher of the store holds the push lease. Cancelling
    /// the calling task stops the wait with ``SyncError/cancelled``.
    func runWaitingForLease(interval: Duration) async throws -> WipeSummary {
        while true {
            do {
                return try await run()
            } catch SyncError.pushInProgress {
                do { try await Task.sleep(for: interval) } catch { throw SyncError.cancelled }
            }
        }
    }

    /// Removes everything in `transaction`.
    func apply(listed: [TableDefinition], in transaction: any StoreTransaction) throws -> WipeSummary {
        // Refuses (throws) while another pusher holds the lease; then the lease is this wipe's, and it goes
        // with the rest of `__config` below.
        try pushLease.take(in: transaction)
        var summary = WipeSummary()
        // Counted first: removing an operation removes its errors.
        summary.errors = try transaction.count(StoreQuery(table: SystemTables.errors))

        // The queue first: a store may keep pointers from rows to their operations.
        let operations = try transaction.queuedOperations(.all)
        // Their errors and retry records go with the whole tables below.
        if !operations.isEmpty { try transaction.removeQueuedOperations(operations) }
        try OperationQueue.recordHighestSequence(removing: operations, in: transaction)
        summary.operations = operations.count
        summary.deadOperations = operations.filter { $0.state == .dead }.count

        let inTransaction = try transaction.fastPaths.definedTables() ?? []
        var names: [String: String] = [:]
        for definition in listed + inTransaction { names[definition.name.lowercased()] = definition.name }
        for name in names.values.sorted() {
            if name.hasPrefix(SystemTables.reservedPrefix) {
                guard Self.isEmptiedWhole(name) else { continue }
                let removed = try transaction.delete(StoreQuery(table: name))
                if name == SystemTables.history { summary.historyEntries = removed }
                if name == SystemTables.blobs { summary.attachments = removed }
            } else {
                summary.rows += try transaction.delete(StoreQuery(table: name))
                summary.tables.append(name)
            }
        }

        for row in try transaction.read(StoreQuery(table: SystemTables.config)) {
            guard let key = row["id"]?.stringValue, !Self.survivingConfigKeys.contains(key) else { continue }
            if key.hasPrefix(SystemConfig.PullKeyKind.deltaToken.prefix) { summary.tokens += 1 }
            try transaction.delete(table: SystemTables.config, ids: [key])
        }
        return summary
    }
}
