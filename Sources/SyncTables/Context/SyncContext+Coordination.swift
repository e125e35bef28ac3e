// One sync action (push, pull, purge) at a time per context. (No local write to an item while its operation
// is on the wire: see ``InFlightItems``.) The waiters are actor state, so waiting is just suspension.

extension SyncContext {
    /// Runs `body` as the context's only sync action, waiting for the one in progress to finish first.
    ///
    /// The action runs with the store's preferred executor (if it has one): a push or pull makes several
    /// store calls per operation or page, and each one would otherwise cost two thread switches.
    ///
    /// With `refusingWhenBusy` it throws ``SyncError/syncActionInProgress`` instead of waiting when another
    /// action runs (a wipe does not queue up behind a push unless asked to).
    func withSyncAction<Result: Sendable>(
        refusingWhenBusy: Bool = false, _ body: () async throws -> Result
    ) async throws -> Result {
        try await withTaskExecutorPreference(store.preferredTaskExecutor) {
            try await runAsSyncAction(refusingWhenBusy: refusingWhenBusy, body)
        }
    }

    private func runAsSyncAction<Result: Sendable>(
        refusingWhenBusy: Bool, _ body: () async throws -> Result
    ) async throws -> Result {
        if refusingWhenBusy, syncActionRunning { throw SyncError.syncActionInProgress }
        while syncActionRunning {
            await withCheckedContinuation { syncActionWaiters.append($0) }
        }
        syncActionRunning = true
        defer {
            syncActionRunning = false
            if !syncActionWaiters.isEmpty { syncActionWaiters.removeFirst().resume() }
        }
        // The same typed error a cancellation during the action gives (push reports it as a cancelled push).
        if Task.isCancelled { throw SyncError.cancelled }
        return try await body()
    }

    /// The client, or a typed error for a context created without one.
    nonisolated func requireClient() throws(SyncError) -> SyncClient {
        guard let client else { throw SyncError.noClient }
        return client
    }
}
