// The context's wipe: sign-out and user switch (see ``Wipe``), as the context's one sync action.

extension SyncContext {
    /// Removes everything the store holds for the current user, in one transaction: the rows of every
    /// table (those this context opened and any other the store holds), the operation queue with its dead
    /// operations, push errors, retry state, the operation history, every incremental-pull token and pull
    /// time, and the sync engine's persisted backoff; then the attachments' files (encrypted ones lose their
    /// keys with the transaction).
    ///
    /// A crash part-way leaves either all of it or none: the wipe is one store transaction. Nothing is sent
    /// to the server; operations not pushed yet are lost (push first to keep them). What survives belongs to
    /// no user: the table definitions, so a new user inserts and pushes at once and the next pull of each
    /// table is a full pull, and the store's layout version and sequence counters.
    ///
    /// By default it refuses, changing nothing, while a push, pull or purge of this context runs
    /// (``SyncError/syncActionInProgress``) or another pusher of the same store file (another context, an app
    /// extension, `synctables push`) holds the push lease (``SyncError/pushInProgress(owner:)``). With
    /// `waitingForSync` it waits for them instead: for this context's running action through its
    /// one-action-at-a-time gate, then for the other pusher's lease to be released (or to expire, should its
    /// owner have stopped). Cancelling the calling task stops the wait with ``SyncError/cancelled``.
    ///
    /// Afterwards live queries emit their empty results, ``queueCountUpdates()`` emits zero counts, and
    /// ``events`` publishes ``SyncEvent/storeWiped(summary:)``, which a started ``SyncEngine`` follows by
    /// forgetting its in-memory pull times and failed cycles. See <doc:SigningOutAndSwitchingUsers>.
    ///
    /// ```swift
    /// await engine.stop()                            // no cycle runs with the old user's token
    /// try await context.wipe(waitingForSync: true)   // everything of the old user, at once
    /// await tokens.signIn(newUser)                   // what the client's requestDecorator reads
    /// await engine.start()
    /// ```
    ///
    /// - Throws: ``SyncError/syncActionInProgress`` or ``SyncError/pushInProgress(owner:)`` while another sync
    ///   action runs (without `waitingForSync`), ``SyncError/cancelled`` when the wait is cancelled, and
    ///   ``SyncError/store(_:)`` when the store fails (nothing is removed then).
    @discardableResult
    public func wipe(waitingForSync: Bool = false) async throws -> WipeSummary {
        let wipe = Wipe(
            store: store, pushLease: pushLease, events: eventBroadcaster, notifier: changeNotifier, blobs: blobs)
        if waitingForSync {
            return try await withSyncAction { try await wipe.runWaitingForLease(interval: .milliseconds(50)) }
        }
        return try await withSyncAction(refusingWhenBusy: true) { try await wipe.run() }
    }
}
