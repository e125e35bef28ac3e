import Foundation

// The overview reads every fact in one store transaction, so counts, queue and tokens agree with each other
// even while an app writes to the same store.

extension SyncContext {
    /// A snapshot of the store: each user table's rows, pending operations (and how many of them wait for a
    /// parent), push errors and pulls (incremental token and last successful pull time per query id), plus the
    /// schema version.
    ///
    /// ```swift
    /// let overview = try await context.overview()
    /// let dirty = overview.tables.filter { $0.pendingOperations > 0 }.map(\.name)
    /// ```
    ///
    /// - Throws: ``SyncError/corruptSystemTable(table:message:)`` for a damaged system row, and ``SyncError/store(_:)``
    ///   when the store fails.
    public func overview() async throws -> StoreOverview {
        let tableNames = try await SyncError.mapping { try await store.tableDefinitions() }
            .map(\.name)
            .filter { !$0.hasPrefix(SystemTables.reservedPrefix) }
            .sorted()
        return try await SyncError.mapping {
            try await store.write { transaction in try Self.overview(tables: tableNames, in: transaction) }
        }
    }

    /// The recorded pulls of one table: each query id's token and last successful pull time.
    ///
    /// - Throws: ``SyncError/corruptSystemTable(table:message:)`` for a damaged system row, and ``SyncError/store(_:)``
    ///   when the store fails.
    public func pullStates(table: String) async throws -> [PullState] {
        try await overview().tables.first { $0.name.lowercased() == table.lowercased() }?.pulls ?? []
    }

    /// The tables whose most recent successful pull (under any query id) happened before `date`.
    ///
    /// Tables that were never pulled are not stale: their rows can only be local data. Use it to purge
    /// replicas nobody refreshes any more:
    ///
    /// ```swift
    /// for table in try await context.staleTables(pulledBefore: .now.addingTimeInterval(-30 * 86_400)) {
    ///     try await context.purge(table: table.name)
    /// }
    /// ```
    ///
    /// - Throws: ``SyncError/corruptSystemTable(table:message:)`` for a damaged system row, and ``SyncError/store(_:)``
    ///   when the store fails.
    public func staleTables(pulledBefore date: Date) async throws -> [TableOverview] {
        let cutoff = Timestamp(date: date)
        return try await overview().tables.filter { table in
            guard let lastPull = table.lastPull else { return false }
            return lastPull < cutoff
        }
    }

    private static func overview(tables: [String], in transaction: any StoreTransaction) throws -> StoreOverview {
        let pulls = try pullStates(in: transaction)
        let held = Dictionary(
            grouping: try ParentHolds.load(tables: tables, in: transaction).heldOperations(in: transaction),
            by: { $0.0.table.lowercased() }
        ).mapValues(\.count)
        var overviews: [TableOverview] = []
        for name in tables {
            let errorFilter = FilterExpression.comparison(
                .equal, .property(OperationErrorRecord.Field.tableName), .value(.string(name)))
            overviews.append(
                TableOverview(
                    name: name,
                    rows: try transaction.count(StoreQuery(table: name)),
                    pendingOperations: try OperationQueue.count(table: name, in: transaction),
                    heldOperations: held[name.lowercased()] ?? 0,
                    pushErrors: try transaction.count(StoreQuery(table: SystemTables.errors, filter: errorFilter)),
                    pulls: pulls[name.lowercased()] ?? []
                ))
        }
        let versionText = try SystemConfig.value(for: SystemConfig.schemaVersionKey, in: transaction)
        var overview = StoreOverview(
            schemaVersion: versionText.flatMap { Int($0) } ?? 0,
            tables: overviews,
            pendingOperations: try transaction.countQueuedOperations(.all),
            pushErrors: try transaction.count(StoreQuery(table: SystemTables.errors))
        )
        overview.attachments = try AttachmentOverview.read(in: transaction)
        return overview
    }

    /// Every token and last pull time in `__config`, grouped by lowercased table name.
    private static func pullStates(in transaction: any StoreTransaction) throws -> [String: [PullState]] {
        var states: [String: PullState] = [:]
        for kind in SystemConfig.PullKeyKind.allCases {
            for (key, text) in try SystemConfig.values(withPrefix: kind.prefix, in: transaction) {
                guard let pullKey = SystemConfig.PullKey(key) else { continue }
                // A delta token may carry a keyset position's item id after its time.
                let parsed = kind == .deltaToken ? DeltaToken(storedValue: text)?.updatedAt : Timestamp(parsing: text)
                guard let time = parsed else {
                    throw SyncError.corruptSystemTable(table: SystemTables.config, message: "'\(key)' is not a date")
                }
                let stateKey = pullKey.table.lowercased() + "|" + pullKey.queryId
                var state =
                    states[stateKey]
                    ?? PullState(table: pullKey.table, queryId: pullKey.queryId.isEmpty ? nil : pullKey.queryId)
                switch kind {
                case .deltaToken: state.deltaToken = time
                case .lastPull: state.lastPull = time
                }
                states[stateKey] = state
            }
        }
        return Dictionary(grouping: states.values) { $0.table.lowercased() }
            .mapValues { $0.sorted { ($0.queryId ?? "") < ($1.queryId ?? "") } }
    }
}
