@_spi(SyncTablesTools) import SyncTablesCore

// The app's push: the whole queue, as the context's one sync action (see ``Push`` for how it runs).

extension SyncContext {
    /// Sends every pending operation of every table to the server, in queue order: in batches when the
    /// server offers them, one request per operation otherwise (see ``PushOptions``).
    ///
    /// Operations the server confirms leave the queue, and the server's item (with its new `version`)
    /// replaces the local row in the same transaction. Failed operations stay queued with a
    /// ``TableOperationError``; conflicts go through the context's ``ConflictPolicy`` first. A 409 or 412
    /// whose server item equals what was sent is no conflict: an earlier attempt reached the server and
    /// only its response was lost (say, the app was killed mid-push), so the operation counts as done.
    ///
    /// One push at a time per store file, across processes: while another context (here or in another
    /// process, such as `synctables push`) pushes the same file, this one sends nothing and throws
    /// ``SyncError/pushInProgress(owner:)``.
    ///
    /// - Returns: What was pushed.
    /// - Throws: ``SyncError/pushFailed(_:)`` when the push was aborted or some operations failed;
    ///   ``SyncError/pushInProgress(owner:)`` when another pusher holds the store's push lease;
    ///   ``SyncError/noClient`` for a context without a client; ``SyncError/store(_:)`` when the store fails.
    @discardableResult
    public func push() async throws -> PushSummary {
        try await push(options: PushOptions())
    }

    /// Sends every pending operation of every table to the server, in batches or several requests at once
    /// as the options allow; see ``PushOptions`` for what each changes on the wire. Everything ``push()``
    /// promises holds per operation.
    ///
    /// - Returns: What was pushed.
    /// - Throws: ``SyncError/invalidPushOptions(_:)`` for options a push cannot run with, and otherwise
    ///   what ``push()`` throws.
    @discardableResult
    public func push(options: PushOptions) async throws -> PushSummary {
        try options.validate()
        do {
            return try await SyncError.mapping {
                try await withSyncAction { try await makePush(options: options).run() }
            }
        } catch .cancelled {
            // Cancelled before it started: nothing was sent, reported like a push cancelled mid-way.
            throw SyncError.pushFailed(
                PushFailure(status: .cancelled, errors: [], reason: "the task was cancelled before the push started"))
        }
    }

    /// A push of this context's queue (only `tables`' operations when given), built from the context's parts
    /// and `failurePolicy`. The caller runs it as the context's sync action.
    nonisolated func makePush(
        failurePolicy: any PushFailurePolicy = RecordingFailurePolicy(), tables: Set<String>? = nil,
        options: PushOptions = PushOptions()
    ) throws(SyncError) -> Push {
        Push(
            store: store, queue: queue, client: try requireClient(), lease: pushLease, events: eventBroadcaster,
            notifier: changeNotifier, inFlight: inFlightItems, failurePolicy: failurePolicy,
            conflictPolicy: configuration.conflictPolicy, handler: configuration.pushHandler, resolver: resolver,
            blobs: blobs, tables: tables, options: options)
    }
}
