@_spi(SyncTablesTools) import SyncTablesCore

// Conflicts (409, 412) met by a push: the conflict policy decides, and its resolution is applied through
// the push's resolver, exactly as an app's own resolution would be.

extension Push {
    /// Applies `policy` to an operation whose error was just recorded.
    func applyConflictPolicy(_ policy: ConflictPolicy, to operation: PendingOperation, mayRetry: Bool) async
        -> PushStep
    {
        guard case .manual = policy else {
            do {
                guard let error = try await resolver.error(operationId: operation.id) else { return .failed }
                let resolution = try await Self.resolution(for: error, policy: policy)
                switch resolution {
                case .unresolved:
                    return .failed
                case .retry(let item) where !mayRetry:
                    try await resolver.apply(.keepOperation(updatingItem: item), to: error)
                    return .resolved
                case .retry(let item):
                    try await resolver.apply(.keepOperation(updatingItem: item), to: error)
                    return .retry
                default:
                    try await resolver.apply(resolution, to: error)
                    return .resolved
                }
            } catch {
                return .failed  // the error stays recorded for the app
            }
        }
        return .failed
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
