import Logging
@_spi(SyncTablesTools) import SyncTablesCore

// Push: the whole queue in sequence order; abort on transport errors and 401, record and
// continue on other HTTP errors; every state change commits in the store before the next step.

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
    ///   ``SyncError/pushInProgress(owner:)`` when another pusher holds the store's push lease.
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
                try await withSyncAction { try await pushQueue(tables: nil, options: options) }
            }
        } catch .cancelled {
            // Cancelled before it started: nothing was sent, reported like a push cancelled mid-way.
            throw SyncError.pushFailed(
                PushFailure(status: .cancelled, errors: [], reason: "the task was cancelled before the push started"))
        }
    }

    /// The push itself, for callers already holding the sync action (pull's implicit push, the engine).
    ///
    /// Dead operations are never sent. With a `delivery` policy (the engine's) operations waiting out a
    /// backoff are not sent either, and each failure is scheduled or dead-lettered as it is recorded.
    func pushQueue(tables: Set<String>?, delivery: DeliveryPolicy? = nil, options: PushOptions = PushOptions())
        async throws -> PushSummary
    {
        let client = try requireClient()
        let lease = pushLease
        try await SyncError.mapping { try await store.write { try lease.take(in: $0) } }
        do {
            let summary = try await pushQueue(tables: tables, client: client, delivery: delivery, options: options)
            try? await store.write { try lease.release(in: $0) }
            return summary
        } catch {
            try? await store.write { try lease.release(in: $0) }
            throw error
        }
    }

    /// The push, holding the store's push lease.
    private func pushQueue(
        tables: Set<String>?, client: SyncClient, delivery: DeliveryPolicy?, options: PushOptions
    ) async throws -> PushSummary {
        let sender = OperationSender(client: client)
        var run = PushRun(pushId: ItemID.generate())
        eventBroadcaster.publish(.pushStarted(pendingOperations: try await queue.count(tables: tables)))

        // A push with nothing to send sends nothing, not even the question for the server's extensions: an
        // offline or metered device pushes an empty queue all the time.
        let hasWork = try await queue.hasOperationToSend(tables: tables) {
            try Self.passesOver($0, delivery: delivery, in: $1)
        }
        var sendsOneByOne = true
        if hasWork, let batch = await batchCapability(client: client, options: options) {
            sendsOneByOne = await pushInBatches(&run, tables: tables, sender: sender, batch: batch, delivery: delivery)
        }
        if sendsOneByOne, run.isGoingOn {
            if options.maxConcurrentRequests > 1 {
                await pushConcurrently(
                    &run, tables: tables, sender: sender, delivery: delivery, width: options.maxConcurrentRequests)
            } else {
                await pushOneByOne(&run, tables: tables, sender: sender, delivery: delivery)
            }
        }
        let (summary, reason) = (run.summary, run.reason)

        let errors = (try? await errorRecords(pushId: run.pushId)) ?? []
        let status = run.status == .succeeded && !errors.isEmpty ? PushStatus.completedWithErrors : run.status
        await pushHandler?.pushCompleted(status: status, errors: errors)
        eventBroadcaster.publish(.pushFinished(status: status, pushed: summary.pushedOperations, failed: errors.count))
        guard status == .succeeded else {
            throw SyncError.pushFailed(PushFailure(status: status, errors: errors, reason: reason, summary: summary))
        }
        return summary
    }

    /// Whether a push passes `operation` over: a dead one always, and with the engine's `delivery` policy
    /// one waiting out its backoff.
    static func passesOver(
        _ operation: PendingOperation, delivery: DeliveryPolicy?, in transaction: any StoreTransaction
    )
        throws -> Bool
    {
        guard let delivery else { return operation.state == .dead }
        return try delivery.skips(operation, in: transaction)
    }

    /// Sends the operations one request each, in queue order.
    private func pushOneByOne(
        _ run: inout PushRun, tables: Set<String>?, sender: OperationSender, delivery: DeliveryPolicy?
    ) async {
        while true {
            if Task.isCancelled {
                run.status = .cancelled
                return
            }
            let claim: OperationQueue.Claim?
            do {
                let inFlightItems = self.inFlightItems
                claim = try await queue.claimNext(
                    after: run.lastSequence, tables: tables, lease: pushLease,
                    skips: { try Self.passesOver($0, delivery: delivery, in: $1) },
                    markInFlight: { operation in
                        inFlightItems.insert(table: operation.table, itemId: operation.itemId)
                    })
            } catch {
                endFlight()  // the claim rolled back, whatever it had marked
                (run.status, run.reason) = (.abortedStore, String(describing: error))
                return
            }
            guard let claim else { return }
            let operation = claim.operation
            run.lastSequence = operation.sequence

            let step = await push(
                claim, pushId: run.pushId, send: { try await sender.send($0) },
                mayRetry: !run.retried.contains(operation.id), delivery: delivery)
            endFlight(table: operation.table, itemId: operation.itemId)
            record(step, of: operation, in: &run, delivery: delivery)
            run.rewindForRetry()
            guard run.isGoingOn else { return }
        }
    }

    /// Counts one operation's step in the run and publishes its event.
    func record(_ step: PushStep, of operation: PendingOperation, in run: inout PushRun, delivery: DeliveryPolicy?) {
        switch step {
        case .pushed:
            run.summary.pushedOperations += 1
            delivery?.logger?.debug(
                "operation pushed",
                metadata: [
                    "operation": "\(operation.id)", "table": "\(operation.table)", "item": "\(operation.itemId)",
                ])
            eventBroadcaster.publish(
                .operationPushed(table: operation.table, id: operation.itemId, kind: operation.kind))
        case .failed:
            break
        case .resolved:
            run.summary.resolvedConflicts += 1
        case .retry:
            run.summary.resolvedConflicts += 1
            run.retried.insert(operation.id)
            run.retry(after: operation.sequence - 1)
        case .abort(let abortStatus, let abortReason) where run.isGoingOn:
            (run.status, run.reason) = (abortStatus, abortReason)
        case .abort:
            break  // an earlier abort (of a concurrent request) is the push's reason
        }
    }

    /// Pushes one operation through `send` (unless a ``PushHandler`` answers for it) and commits its outcome.
    func push(
        _ claim: OperationQueue.Claim,
        pushId: String,
        send: @escaping PushOperation.Sender,
        mayRetry: Bool,
        delivery: DeliveryPolicy?
    ) async -> PushStep {
        let operation = claim.operation
        guard let item = claim.item else {
            let decided = DecidedOperation(missingRowOf: operation, mayRetry: mayRetry)
            return await settle([decided], pushId: pushId, delivery: delivery).first ?? .failed
        }
        let request = Self.pushOperation(operation, item: item)
        let outcome: OperationOutcome
        do {
            let serverItem: JSONObject?
            if let pushHandler {
                serverItem = try await pushHandler.execute(request, send: send)
            } else {
                serverItem = try await send(request)
            }
            outcome = .completed(serverItem: serverItem)
        } catch {
            outcome = OperationOutcome(operation: operation, item: item, error: error)
        }
        let decided = DecidedOperation(operation: operation, item: item, outcome: outcome, mayRetry: mayRetry)
        return await settle([decided], pushId: pushId, delivery: delivery).first ?? .failed
    }

    /// Applies the context's conflict policy to an operation whose error was just recorded.
    func applyConflictPolicy(
        _ policy: ConflictPolicy,
        to operation: PendingOperation,
        pushId: String,
        mayRetry: Bool
    ) async -> PushStep {
        guard case .manual = policy else {
            do {
                guard let record = try await errorRecord(operationId: operation.id) else { return .failed }
                let error = TableOperationError(record: record, context: self)
                let resolution = try await conflictResolution(for: error, policy: policy)
                switch resolution {
                case .unresolved:
                    return .failed
                case .retry(let item) where !mayRetry:
                    try await applyResolution(.keepOperation(updatingItem: item), to: error)
                    return .resolved
                case .retry(let item):
                    try await applyResolution(.keepOperation(updatingItem: item), to: error)
                    return .retry
                default:
                    try await applyResolution(resolution, to: error)
                    return .resolved
                }
            } catch {
                return .failed  // the error stays recorded for the app
            }
        }
        return .failed
    }

    /// What the policy decides for one conflict.
    private func conflictResolution(for error: TableOperationError, policy: ConflictPolicy) async throws
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
