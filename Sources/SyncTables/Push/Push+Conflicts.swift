@_spi(SyncTablesTools) import SyncTablesCore

// Conflicts (409, 412, and 404/410 for updates where a rule asks for it) met by a push: the table's rules
// resolve what they can by themselves, the conflict policy decides the rest, and either resolution is
// applied through the push's resolver, exactly as an app's own resolution would be.

extension Push {
    /// Resolves a failed operation by its table's ``SyncRules``; `nil` when the failure is no conflict or
    /// the rules leave it to the conflict policy.
    func resolveByRules(_ operation: PendingOperation, failure: OperationFailure, mayRetry: Bool) async -> PushStep? {
        do {
            let rules = try await TableRulesRecord.rules(of: operation.table, in: store)
            guard let kind = ConflictClassification.kind(of: operation, failure: failure, rules: rules),
                let error = try await resolver.error(operationId: operation.id),
                let stored = try await queue.operation(id: operation.id), stored.version == error.operationVersion
            else { return nil }
            let localRow =
                stored.kind == .delete ? nil : try await store.lookup(table: operation.table, id: operation.itemId)
            let automatic = AutomaticResolution(rules: rules, client: client)
            guard
                let (resolution, trace) = try await automatic.resolve(
                    kind, operation: stored, error: error, localRow: localRow)
            else { return nil }
            return try await apply(resolution, to: error, trace: trace, mayRetry: mayRetry)
        } catch {
            return .failed  // the error stays recorded; the next push meets the conflict again
        }
    }

    /// Applies `policy` to an operation whose error was just recorded.
    func applyConflictPolicy(_ policy: ConflictPolicy, to operation: PendingOperation, mayRetry: Bool) async
        -> PushStep
    {
        guard case .manual = policy else {
            do {
                guard let error = try await resolver.error(operationId: operation.id) else { return .failed }
                let resolution = try await Self.resolution(for: error, policy: policy)
                return try await apply(resolution, to: error, trace: nil, mayRetry: mayRetry)
            } catch {
                return .failed  // the error stays recorded for the app
            }
        }
        return .failed
    }

    /// Applies a resolution through the resolver; a resolution that sends the operation again does so within
    /// this push when `mayRetry`, else with the next push.
    private func apply(
        _ resolution: ConflictResolution, to error: TableOperationError, trace: ResolutionTrace?, mayRetry: Bool
    ) async throws -> PushStep {
        switch resolution {
        case .unresolved:
            return .failed
        case .retry, .convert:
            try await resolver.apply(resolution, to: error, trace: trace)
            return mayRetry ? .retry : .resolved
        case .cancelAndUpdateItem, .cancelAndDiscardItem, .keepOperation:
            try await resolver.apply(resolution, to: error, trace: trace)
            return .resolved
        }
    }

    /// What the policy decides for one conflict.
    private static func resolution(for error: TableOperationError, policy: ConflictPolicy) async throws
        -> ConflictResolution
    {
        switch policy {
        case .manual:
            return .unresolved
        case .serverWins:
            guard let serverItem = error.serverItem else { return .unresolved }
            return error.kind == .delete && serverItem.isTombstone
                ? .cancelAndDiscardItem : .cancelAndUpdateItem(serverItem)
        case .clientWins:
            guard let serverItem = error.serverItem, var item = error.clientItem else { return .unresolved }
            item["version"] = serverItem["version"]
            return .retry(updatingItem: item)
        case .custom(let decide):
            return try await decide(error)
        }
    }
}
