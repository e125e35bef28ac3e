// Concurrent push: up to `width` single requests on the wire at once. Each operation is claimed, sent and
// committed exactly as in a sequential push; only the waiting overlaps. An item has one queued operation
// at a time and local writes to an item in flight wait, so one item's operations never overlap. A child whose
// parent's insert is on the wire is passed over (the insert is still queued) and claimed once it committed.

extension Push {
    /// Sends the queue with up to `width` requests at once, claiming in queue order.
    func pushConcurrently(_ run: inout PushRun, sender: OperationSender, width: Int) async {
        var exhausted = false
        var claimFailed = false
        let pushId = run.pushId
        await withTaskGroup(of: (PendingOperation, PushStep).self) { group in
            var running = 0
            while true {
                while running < width, !exhausted, run.isGoingOn {
                    if Task.isCancelled {
                        run.status = .cancelled
                        break
                    }
                    let claim: OperationQueue.Claim?
                    do {
                        claim = try await claimNext(for: run)
                    } catch {
                        claimFailed = true
                        (run.status, run.reason) = (.abortedStore, String(describing: error))
                        break
                    }
                    guard let claim else {
                        exhausted = true
                        break
                    }
                    let operation = claim.operation
                    run.claimed(operation)
                    running += 1
                    let mayRetry = run.mayRetry(operation)
                    group.addTask {
                        let step = await self.push(
                            claim, pushId: pushId, send: sender.send, mayRetry: mayRetry)
                        return (operation, step)
                    }
                }
                // The requests still on the wire finish (and commit) even after an abort.
                guard let (operation, step) = await group.next() else { break }
                running -= 1
                inFlight.end(table: operation.table, itemId: operation.itemId)
                record(step, of: operation, in: &run)
                // A retry, or children that waited for this operation's insert, send the claims back.
                if run.rewindForRetry() { exhausted = false }
            }
        }
        if claimFailed { inFlight.endAll() }  // the failed claim rolled back, whatever it had marked
    }
}
