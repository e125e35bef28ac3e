// Batched push: the operations go to the server's batch extension in queue order, many per request, and
// each outcome is handled exactly as the answer to its own request would be (same classification, same
// store building blocks), the outcomes of one batch committing in one transaction.

extension Push {
    /// The server's batch extension, unless the options ask for single requests or something else rules
    /// batches out. The client asks the server once and remembers the answer.
    func batchCapability() async -> BatchCapability? {
        // A handler sends each operation itself; a server that cannot be asked gets single requests, which
        // then report its failure as they always do.
        guard options.batchSize ?? .max > 1, handler == nil else { return nil }
        guard var batch = try? await client.capabilities().batch, batch.maxOperations > 1 else { return nil }
        batch.maxOperations = min(options.batchSize ?? .max, batch.maxOperations)
        return batch
    }

    /// Sends the queue in batches; returns `true` when the server stopped taking batches (404 or 405) and
    /// the rest of the queue goes one request per operation.
    func pushInBatches(_ run: inout PushRun, sender: OperationSender, batch: BatchCapability) async -> Bool {
        // A quarter of the server's body limit stays free for the batch's own framing.
        let byteLimit = batch.maxBytes - batch.maxBytes / 4
        while true {
            if Task.isCancelled {
                run.status = .cancelled
                return false
            }
            let claims: [OperationQueue.Claim]
            do {
                let inFlight = self.inFlight
                // A child whose parent's insert is in this batch is passed over: that insert is still queued.
                claims = try await queue.claimBatch(
                    after: run.lastSequence, tables: tables, lease: lease, limit: batch.maxOperations,
                    byteLimit: byteLimit, skips: passesOver(in: run),
                    size: { operation, item in
                        OperationSender.batchedWrite(for: pushOperation(operation, item: item)).estimatedSize
                    },
                    markInFlight: { operation in
                        inFlight.insert(table: operation.table, itemId: operation.itemId)
                    })
            } catch {
                inFlight.endAll()  // the claim rolled back, whatever it had marked
                (run.status, run.reason) = (.abortedStore, String(describing: error))
                return false
            }
            guard !claims.isEmpty else { return false }
            for claim in claims { run.claimed(claim.operation) }

            let delivered = await deliver(claims, sender: sender, batch: batch)
            // An answered batch's outcomes commit in one transaction; otherwise each operation goes (or
            // fails) on its own, committing as it returns.
            var settled: [PushStep] = []
            if case .answered(let answers) = delivered {
                let decided = claims.enumerated().map { index, claim in
                    DecidedOperation(
                        claim, sent: claim.item.map { pushOperation(claim.operation, item: $0).item },
                        response: answers[index], mayRetry: run.mayRetry(claim.operation),
                        recognizesEqualData: claim.item.map { recognizesEqualData(of: claim.operation, item: $0) }
                            ?? true)
                }
                settled = await settle(decided, pushId: run.pushId)
            }
            for (index, claim) in claims.enumerated() {
                let operation = claim.operation
                let step: PushStep
                if index < settled.count {
                    step = settled[index]
                } else {
                    step = await push(
                        claim, pushId: run.pushId,
                        send: delivered.sender(for: index, kind: operation.kind, via: sender),
                        mayRetry: run.mayRetry(operation))
                }
                inFlight.end(table: operation.table, itemId: operation.itemId)
                record(step, of: operation, in: &run)
                guard run.isGoingOn else {
                    inFlight.endAll()  // the rest of the batch stays queued, attempted, as after a kill
                    return false
                }
            }
            run.rewindForRetry()
            if case .refused = delivered { return true }
        }
    }

    /// Sends the claimed operations that have an item as one batch.
    private func deliver(_ claims: [OperationQueue.Claim], sender: OperationSender, batch: BatchCapability) async
        -> BatchDelivery
    {
        let writes = claims.compactMap { claim in
            claim.item.map { OperationSender.batchedWrite(for: pushOperation(claim.operation, item: $0)) }
        }
        guard !writes.isEmpty else { return .answered([:]) }
        do {
            for claim in claims {
                if let item = claim.item { try await uploadAttachments(of: claim.operation, item: item) }
            }
        } catch let error as TransportError {
            return .failed(error)
        } catch is CancellationError {
            return .failed(CancellationError())
        } catch {
            // A file that cannot go fails only the operations that need it: each goes on its own.
            return .oneByOne
        }
        do {
            let responses = try await sender.client.sendBatch(writes, to: batch, features: [.offline])
            var answers: [Int: TransportResponse] = [:]
            var next = responses.makeIterator()
            for (index, claim) in claims.enumerated() where claim.item != nil { answers[index] = next.next() }
            return .answered(answers)
        } catch let error as HTTPStatusError where error.status == 404 || error.status == 405 {
            sender.client.stopBatching()
            return .refused
        } catch let error as HTTPStatusError where error.status != 401 {
            // Refused as a whole (too large, a server error): each operation goes again on its own, which
            // is safe even if the server applied some of them (a replay is recognised).
            return .oneByOne
        } catch is RemoteError {
            return .oneByOne
        } catch {
            return .failed(error)
        }
    }

}

/// What became of a batch request.
enum BatchDelivery: Sendable {
    /// One response per claim with an item, by claim index.
    case answered([Int: TransportResponse])
    /// The server does not take batches (404, 405): these operations and the rest go one by one.
    case refused
    /// The batch was refused as a whole; its operations go one by one.
    case oneByOne
    /// No answer arrived (network, cancellation, 401): each operation fails with this error, as its own
    /// request would have.
    case failed(any Error)

    /// How the push sends the operation at `index` of the batch.
    func sender(for index: Int, kind: OperationKind, via sender: OperationSender) -> WriteAnswer.Sender {
        switch self {
        case .answered(let answers):
            let response = answers[index]
            return { _ in
                guard let response else {
                    throw RemoteError.malformedResponse(status: 200, body: [], reason: "no result")
                }
                return try WriteAnswer(of: kind, response: response)
            }
        case .refused, .oneByOne:
            return sender.send
        case .failed(let error):
            return { _ in throw error }
        }
    }
}
