import Logging
@_spi(SyncTablesTools) import SyncTablesCore

/// One push: the queue's operations sent to the server in queue order, each outcome committed before the
/// next step. Built from the parts it works with, so what a push depends on is in one place.
///
/// Transport errors and 401 abort; other HTTP errors are recorded and the push goes on. The
/// ``PushFailurePolicy`` says what else becomes of a failure: a plain push (``SyncContext/push()``) records
/// it; the engine's schedules a retry or dead-letters the operation. The caller holds the context's sync
/// action (one action at a time per context); the push takes the store's ``PushLease`` itself.
struct Push: Sendable {
    /// The store holding the tables and the queue.
    let store: any LocalStore
    /// The queue the operations come from.
    let queue: OperationQueue
    /// The server.
    let client: SyncClient
    /// What makes this push the store's only pusher.
    let lease: PushLease
    /// Where each operation's and the push's events go.
    let events: Broadcaster<SyncEvent>
    /// Wakes the live queries of tables whose rows the server's answers changed.
    let notifier: Broadcaster<Void>
    /// The items on the wire, which local writes wait for.
    let inFlight: InFlightItems
    /// Which operations are passed over and what becomes of a failure.
    let failurePolicy: any PushFailurePolicy
    /// What a conflict (409, 412) becomes, unless the failure policy names another for its table.
    let conflictPolicy: ConflictPolicy
    /// The hook around each operation, if any.
    let handler: (any PushHandler)?
    /// Resolutions the conflict policy chose are applied through it, and it owns the errors handed out.
    let resolver: ErrorResolver
    /// The attachments' files, uploaded before the operations that reference them.
    let blobs: BlobFolder
    /// The tables whose operations go (`nil`: all).
    var tables: Set<String>? = nil
    /// Batches and concurrency.
    var options = PushOptions()
    /// The tables' rules by lower-cased name, read when the push starts.
    var rules: [String: SyncRules] = [:]
    /// Uploads the files operations reference; `nil` when no table declares attachments.
    var uploads: AttachmentUploads?

    /// Runs the push under the store's push lease.
    ///
    /// - Throws: ``SyncError/pushFailed(_:)`` when it was aborted or some operations failed,
    ///   ``SyncError/pushInProgress(owner:)`` when another pusher holds the lease.
    func run() async throws -> PushSummary {
        let lease = self.lease
        let records = try await SyncError.mapping {
            try await store.write { transaction in
                try lease.take(in: transaction)
                return try TableRulesRecord.all(in: transaction)
            }
        }
        var push = self
        push.rules = Dictionary(
            records.map { ($0.table.lowercased(), $0.rules) }, uniquingKeysWith: { first, _ in first })
        if records.contains(where: { !$0.rules.attachments.isEmpty }) {
            push.uploads = AttachmentUploads(store: store, client: client, blobs: blobs, events: events)
        }
        do {
            let holds = try await SyncError.mapping { try await ParentHolds.make(records, tablesOf: store) }
            let summary = try await push.runHoldingLease(holds: holds)
            try? await store.write { try lease.release(in: $0) }
            return summary
        } catch {
            try? await store.write { try lease.release(in: $0) }
            throw error
        }
    }

    private func runHoldingLease(holds: ParentHolds) async throws -> PushSummary {
        let sender = OperationSender(client: client, asksForExtensions: options.batchSize != 1)
        var run = PushRun(pushId: ItemID.generate(), holds: holds)
        events.publish(.pushStarted(pendingOperations: try await queue.count(tables: tables)))

        // A push with nothing to send sends nothing, not even the question for the server's extensions: an
        // offline or metered device pushes an empty queue all the time.
        let failurePolicy = self.failurePolicy
        let hasWork = try await queue.hasOperationToSend(tables: tables) { operation, transaction in
            try failurePolicy.skips(operation, in: transaction) || holds.hold(of: operation, in: transaction) != nil
        }
        var sendsOneByOne = true
        if hasWork, let batch = await batchCapability() {
            sendsOneByOne = await pushInBatches(&run, sender: sender, batch: batch)
        }
        if sendsOneByOne, run.isGoingOn {
            if options.maxConcurrentRequests > 1 {
                await pushConcurrently(&run, sender: sender, width: options.maxConcurrentRequests)
            } else {
                await pushOneByOne(&run, sender: sender)
            }
        }
        let (summary, reason) = (run.summary, run.reason)

        let errors = (try? await resolver.errors(pushId: run.pushId)) ?? []
        let status = run.status == .succeeded && !errors.isEmpty ? PushOutcome.completedWithErrors : run.status
        await handler?.pushCompleted(status: status, errors: errors)
        events.publish(.pushFinished(status: status, pushed: summary.pushedOperations, failed: errors.count))
        guard status == .succeeded else {
            throw SyncError.pushFailed(PushFailure(status: status, errors: errors, reason: reason, summary: summary))
        }
        return summary
    }

    /// Sends the operations one request each, in queue order.
    private func pushOneByOne(_ run: inout PushRun, sender: OperationSender) async {
        while true {
            if Task.isCancelled {
                run.status = .cancelled
                return
            }
            let claim: OperationQueue.Claim?
            do {
                claim = try await claimNext(for: run)
            } catch {
                inFlight.endAll()  // the claim rolled back, whatever it had marked
                (run.status, run.reason) = (.abortedStore, String(describing: error))
                return
            }
            guard let claim else { return }
            let operation = claim.operation
            run.claimed(operation)

            let step = await push(
                claim, pushId: run.pushId, send: sender.send,
                mayRetry: run.mayRetry(operation))
            inFlight.end(table: operation.table, itemId: operation.itemId)
            record(step, of: operation, in: &run)
            run.rewindForRetry()
            guard run.isGoingOn else { return }
        }
    }

    /// Claims the next operation to send after the run's position (marking its item in flight), passing over
    /// what ``passesOver(in:)`` says.
    func claimNext(for run: PushRun) async throws -> OperationQueue.Claim? {
        let inFlight = self.inFlight
        return try await queue.claimNext(
            after: run.lastSequence, tables: tables, lease: lease, skips: passesOver(in: run),
            markInFlight: { operation in inFlight.insert(table: operation.table, itemId: operation.itemId) })
    }

    /// What the run's claims pass over: the operations it handled already, what the failure policy skips (dead
    /// ones; the engine's also those waiting out a backoff), and children whose parent's insert is queued.
    func passesOver(in run: PushRun) -> @Sendable (PendingOperation, any StoreTransaction) throws -> Bool {
        let (handled, failurePolicy, holds, history) = (run.handledAhead, self.failurePolicy, run.holds, queue.history)
        return { operation, transaction in
            if handled.contains(operation.id) { return true }
            if try failurePolicy.skips(operation, in: transaction) { return true }
            return try holds.passesOver(operation, history: history, in: transaction)
        }
    }

    /// Counts one operation's step in the run and publishes its event; once a parent's insert is settled, the
    /// run goes back to the children it passed over waiting for it.
    func record(_ step: PushStep, of operation: PendingOperation, in run: inout PushRun) {
        if let resumption = run.holds.resumption(after: operation) { run.retry(after: resumption) }
        switch step {
        case .pushed:
            run.summary.pushedOperations += 1
            failurePolicy.logger?.debug(
                "operation pushed",
                metadata: [
                    "operation": "\(operation.id)", "table": "\(operation.table)", "item": "\(operation.itemId)",
                ])
            events.publish(.operationPushed(table: operation.table, id: operation.itemId, kind: operation.kind))
        case .sendAgain where run.mayRetry(operation):
            run.countRetry(of: operation)
            run.release(operation)
            run.retry(after: operation.sequence - 1)
        case .failed, .sendAgain:
            break  // the operation stays queued
        case .resolved:
            run.summary.resolvedConflicts += 1
        case .retry:
            run.summary.resolvedConflicts += 1
            run.countRetry(of: operation)
            run.release(operation)
            run.retry(after: operation.sequence - 1)
        case .abort(let abortStatus, let abortReason) where run.isGoingOn:
            (run.status, run.reason) = (abortStatus, abortReason)
        case .abort:
            break  // an earlier abort (of a concurrent request) is the push's reason
        }
    }

    /// Pushes one operation through `send` (unless the ``PushHandler`` answers for it) and commits its outcome.
    func push(
        _ claim: OperationQueue.Claim, pushId: String, send: @escaping WriteAnswer.Sender, mayRetry: Bool
    ) async -> PushStep {
        let operation = claim.operation
        guard let item = claim.item else {
            let decided = DecidedOperation(missingRowOf: operation, mayRetry: mayRetry)
            return await settle([decided], pushId: pushId).first ?? .failed
        }
        let request = pushOperation(operation, item: item)
        let outcome: OperationOutcome
        do {
            try await uploadAttachments(of: operation, item: item)
            if let handler {
                // The handler sees items only; what it sent and whether the server replayed it are kept aside.
                let replay = LockedState<JSONObject?>(nil)
                let serverItem = try await handler.execute(request) { sent in
                    let answer = try await send(sent)
                    replay.withLock { $0 = answer.replayed ? sent.item : nil }
                    return answer.item
                }
                let replayedItem = replay.withLock { $0 }
                outcome = OperationOutcome(
                    answer: WriteAnswer(item: serverItem, replayed: replayedItem != nil),
                    sent: replayedItem ?? request.item, kind: operation.kind)
            } else {
                outcome = OperationOutcome(answer: try await send(request), sent: request.item, kind: operation.kind)
            }
        } catch {
            outcome = OperationOutcome(
                operation: operation, item: item, error: error,
                recognizesEqualData: recognizesEqualData(of: operation, item: item))
        }
        let decided = DecidedOperation(operation: operation, item: item, outcome: outcome, mayRetry: mayRetry)
        return await settle([decided], pushId: pushId).first ?? .failed
    }

    /// Uploads the files an insert's or update's item references that the server lacks (see
    /// ``AttachmentUploads``), so the operation never reaches the server before them.
    func uploadAttachments(of operation: PendingOperation, item: JSONObject) async throws {
        guard let uploads, operation.kind != .delete,
            let properties = rules[operation.table.lowercased()]?.attachments, !properties.isEmpty
        else { return }
        try await uploads.upload(referencedBy: item, properties: properties)
    }

    /// Whether a conflict whose server item equals `item` may count as the operation's own earlier write:
    /// not for an update that changed a counter (``FieldMergeRule/counter``), whose total another device may
    /// have reached too.
    func recognizesEqualData(of operation: PendingOperation, item: JSONObject) -> Bool {
        guard operation.kind == .update, let rules = rules[operation.table.lowercased()] else { return true }
        let counters = rules.fieldRules.filter { $0.value == .counter }.keys
        return !counters.contains { item[$0] != (operation.ancestor?[$0] ?? item[$0]) }
    }

    /// One operation as a ``PushHandler`` and the sender see it: for an update of a table whose rules say
    /// so, only the fields changed since its ancestor.
    func pushOperation(_ operation: PendingOperation, item: JSONObject) -> PushOperation {
        var sent = item
        if operation.kind == .update, let ancestor = operation.ancestor,
            rules[operation.table.lowercased()]?.sendsOnlyChangedFields == true
        {
            sent = ChangedFields.item(item, since: ancestor)
        }
        return PushOperation(
            operationId: operation.id, kind: operation.kind, table: operation.table, itemId: operation.itemId,
            item: sent, idempotencyKey: PushOperation.idempotencyKey(of: operation, item: item))
    }
}
