import Foundation

// Committing what pushed operations came to: the outcomes of one request, or of a whole batch, in one
// store transaction through the queue's completing and failing building blocks; then each operation's
// event and, for conflicts, the conflict policy.

extension Push {
    /// An operation of a push with the outcome decided for it.
    struct DecidedOperation: Sendable {
        var operation: PendingOperation
        /// The item as it was sent.
        var item: JSONObject
        var outcome: OperationOutcome
        /// Whether a conflict policy may still ask to send it again in this push.
        var mayRetry: Bool

        init(operation: PendingOperation, item: JSONObject, outcome: OperationOutcome, mayRetry: Bool) {
            (self.operation, self.item, self.outcome, self.mayRetry) = (operation, item, outcome, mayRetry)
        }

        /// An insert or update whose local row vanished (e.g. deleted by hand): an error the app can
        /// resolve, never a stuck queue.
        init(missingRowOf operation: PendingOperation, mayRetry: Bool) {
            self.init(
                operation: operation, item: JSONObject(["id": .string(operation.itemId)]),
                outcome: .failed(
                    OperationFailure(message: "the local row of this \(operation.kind) is missing", permanent: true)),
                mayRetry: mayRetry)
        }

        /// The operation of a batch with its result (`nil` when the answer held none for it).
        init(
            _ claim: OperationQueue.Claim, sent: JSONObject?, response: TransportResponse?, mayRetry: Bool,
            recognizesEqualData: Bool
        ) {
            guard let item = claim.item else {
                self.init(missingRowOf: claim.operation, mayRetry: mayRetry)
                return
            }
            let outcome: OperationOutcome
            do {
                guard let response else {
                    throw RemoteError.malformedResponse(status: 200, body: [], reason: "no result")
                }
                outcome = OperationOutcome(
                    answer: try WriteAnswer(of: claim.operation.kind, response: response), sent: sent ?? item,
                    kind: claim.operation.kind)
            } catch {
                outcome = OperationOutcome(
                    operation: claim.operation, item: item, error: error, recognizesEqualData: recognizesEqualData)
            }
            self.init(operation: claim.operation, item: item, outcome: outcome, mayRetry: mayRetry)
        }
    }

    /// Commits the outcomes in queue order up to the first abort, all in one store transaction, then
    /// publishes each failure and lets the conflict policy handle conflicts.
    ///
    /// Returns one step per operation, up to and including the aborting one; a failed commit aborts at
    /// the first operation (nothing was committed: the operations stay queued as after a kill, and a
    /// replay is recognised).
    func settle(_ decided: [DecidedOperation], pushId: String) async -> [PushStep] {
        let committed = decided.prefix { entry in
            if case .aborted = entry.outcome { return false }
            return true
        }
        let createdAt = Timestamp(date: .now)
        let (queue, failurePolicy) = (self.queue, self.failurePolicy)
        // The operations the failure policy dead-lettered while recording their failures.
        var deadLettered: [String: PendingOperation] = [:]
        do {
            if !committed.isEmpty {
                deadLettered = try await store.write { transaction in
                    var dead: [String: PendingOperation] = [:]
                    for entry in committed {
                        switch entry.outcome {
                        case .completed(let serverItem):
                            try queue.completePush(of: entry.operation, serverItem: serverItem, in: transaction)
                        case .completedEarlierAttempt(let serverItem):
                            try queue.completeEarlierAttempt(
                                of: entry.operation, serverItem: serverItem, in: transaction)
                        case .failed(let failure):
                            let record = Self.errorRecord(entry, failure: failure, pushId: pushId, at: createdAt)
                            let stored = try queue.recordFailure(
                                of: entry.operation, error: record, retryAfter: failure.retryAfter,
                                permanent: failure.permanent, policy: failurePolicy, in: transaction)
                            if let stored, stored.state == .dead { dead[stored.id] = stored }
                        case .aborted:
                            break
                        }
                    }
                    return dead
                }
            }
        } catch {
            return [.abort(.abortedStore, reason: String(describing: error))]
        }

        var changedTables: [String] = []
        for entry in committed {
            if entry.outcome.changedLocalRow, !changedTables.contains(entry.operation.table) {
                changedTables.append(entry.operation.table)
            }
        }
        for table in changedTables { notifier.notify(table) }

        var steps: [PushStep] = []
        for entry in committed {
            guard case .failed(let failure) = entry.outcome else {
                if case .completedEarlierAttempt = entry.outcome {
                    steps.append(.sendAgain)
                } else {
                    steps.append(.pushed)
                }
                continue
            }
            let operation = entry.operation
            events.publish(
                .operationFailed(
                    table: operation.table, id: operation.itemId, kind: operation.kind, status: failure.status))
            if let dead = deadLettered[operation.id] { events.publish(.operationDeadLettered(dead)) }
            steps.append(
                await handleFailure(operation, failure: failure, pushId: pushId, mayRetry: entry.mayRetry))
        }
        if committed.count < decided.count, case .aborted(let status, let reason) = decided[committed.count].outcome {
            steps.append(.abort(status, reason: reason))
        }
        return steps
    }

    /// A recorded failure's step: conflicts go through the table's rules, then the conflict policy, and a
    /// failure policy that says so (the engine's) dead-letters one left unresolved, so it blocks nothing until
    /// the app resolves it.
    private func handleFailure(
        _ operation: PendingOperation, failure: OperationFailure, pushId: String, mayRetry: Bool
    ) async -> PushStep {
        let step: PushStep
        if let byRules = await resolveByRules(operation, failure: failure, mayRetry: mayRetry) {
            step = byRules
        } else if failure.isConflict {
            let policy = failurePolicy.conflictPolicy(for: operation.table) ?? conflictPolicy
            step = await applyConflictPolicy(policy, to: operation, mayRetry: mayRetry)
        } else {
            return .failed
        }
        if case .failed = step, failure.isConflict, failurePolicy.deadLettersUnresolvedConflicts {
            let queue = self.queue
            if let dead = try? await store.write({ try queue.deadLetter(operation, in: $0) }) {
                events.publish(.operationDeadLettered(dead))
            }
        }
        return step
    }

    /// The error stored for a failed operation; its id is the operation's, so it stays the same while the
    /// operation keeps failing and an id a script read from the error list still resolves after the next push.
    private static func errorRecord(
        _ entry: DecidedOperation, failure: OperationFailure, pushId: String, at createdAt: Timestamp
    ) -> OperationErrorRecord {
        let operation = entry.operation
        return OperationErrorRecord(
            id: operation.id, operationId: operation.id, operationVersion: operation.version,
            kind: operation.kind, table: operation.table, itemId: operation.itemId, status: failure.status,
            clientItem: entry.item, serverItem: failure.serverItem, ancestorItem: operation.ancestor,
            rawBody: failure.rawBody.map { String(decoding: $0, as: UTF8.self) }, message: failure.message,
            pushId: pushId, createdAt: createdAt)
    }
}
