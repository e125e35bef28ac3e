// One sync action (push, pull, purge) at a time per context, and no local write to an item while its
// operation is on the wire. The waiters are actor state, so waiting is just
// suspension; the in-flight set is locked, because push fills it inside a store transaction.

extension SyncContext {
    /// Runs `body` as the context's only sync action, waiting for the one in progress to finish first.
    ///
    /// The action runs with the store's preferred executor (if it has one): a push or pull makes several
    /// store calls per operation or page, and each one would otherwise cost two thread switches.
    func withSyncAction<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
        try await withTaskExecutorPreference(store.preferredTaskExecutor) {
            try await runAsSyncAction(body)
        }
    }

    private func runAsSyncAction<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
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

    /// Ends an item's push (begun when push claimed its operation, see ``InFlightItems``) and wakes the
    /// writers waiting for it; with no item, ends every flight (after a claim that failed).
    func endFlight(table: String? = nil, itemId: String? = nil) {
        if let table, let itemId {
            inFlightItems.remove(table: table, itemId: itemId)
        } else {
            inFlightItems.removeAll()
        }
        let waiters = inFlightWaiters
        inFlightWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    /// Waits while any of these items is being pushed, so a local edit never races the server's answer.
    func waitUntilNotInFlight(table: String, itemIds: [String]) async {
        while inFlightItems.containsAny(table: table, itemIds: itemIds) {
            await withCheckedContinuation { inFlightWaiters.append($0) }
        }
    }

    /// The client, or a typed error for a context created without one.
    func requireClient() throws(SyncError) -> SyncClient {
        guard let client else { throw SyncError.noClient }
        return client
    }
}
