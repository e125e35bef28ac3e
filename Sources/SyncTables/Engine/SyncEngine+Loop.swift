import Foundation

// The loop of a started engine: it sleeps until the next due time (or a wake-up), then runs a cycle.

extension SyncEngine {
    /// A local write to `table` at `date`: the status follows it, and definitions that sync after local
    /// writes are due once the burst settles.
    func localWrite(table: String, at date: Date) async {
        if scheduler.localWrite(table: table, at: date) { wake() }
        await refreshQueueSize()
    }

    func runLoop() async {
        while !Task.isCancelled {
            let now = clock.now()
            guard let next = await nextCycleTime(now: now) else {
                await waitUntil(nil)
                continue
            }
            if next > now {
                await waitUntil(next)
                continue
            }
            let due = scheduler.takeDue(at: now)
            guard due.cycleDue else {
                await waitUntil(nil)  // cannot happen: a deadline passed means something is due
                continue
            }
            _ = await cycle(reason: "scheduled", definitions: due.definitions, explicit: false).value
        }
    }

    /// When the next cycle the engine starts by itself may run: the earliest due time of the schedules
    /// and retries, held back by a backoff, the breaker and the minimum interval; `nil` while nothing can run
    /// (offline, blocked on credentials, nothing due).
    ///
    /// The end of a backoff or pause is itself due, whatever the schedules say: the engine comes back by
    /// itself for its probe and the queue.
    func nextCycleTime(now: Date) async -> Date? {
        switch state {
        case .offline, .stopped, .blockedAuth: return nil
        case .idle:
            // Operations waiting out a retry time, also one that fell due while the last cycle ran; not
            // needed when a cycle is due now anyway.
            if scheduler.nextDeadline.map({ $0 > now }) ?? true, let retry = try? await context.earliestRetryTime() {
                scheduler.requestPush(at: retry)
            }
        case .backoff(let until), .paused(let until):
            scheduler.requestPush(at: until)
        case .syncing: break
        }
        guard var next = scheduler.nextDeadline else { return nil }
        switch state {
        case .paused where reconnectProbeAllowed: break
        case .backoff(let until), .paused(let until): next = max(next, until)
        default: break
        }
        if let lastCycleStart {
            next = max(next, lastCycleStart.addingTimeInterval(configuration.minimumCycleInterval.timeInterval))
        }
        return next
    }

    /// Returns at `deadline` (`nil`: never by itself) or when ``wake()`` is called, whichever comes first.
    func waitUntil(_ deadline: Date?) async {
        if wakeRequested {
            wakeRequested = false
            return
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                wakeUp = continuation
                guard let deadline else { return }
                sleeperGeneration += 1
                let generation = sleeperGeneration
                sleeper = Task { [clock] in
                    try? await clock.sleep(until: deadline)
                    self.sleeperFinished(generation)
                }
            }
        } onCancel: {
            Task { await self.wake() }
        }
        wakeRequested = false
    }

    func sleeperFinished(_ generation: Int) {
        guard generation == sleeperGeneration else { return }
        sleeper = nil
        wakeUp?.resume()
        wakeUp = nil
    }

    /// Makes the loop look again at what is due (a trigger fired, the state changed).
    func wake() {
        wakeRequested = true
        sleeperGeneration += 1
        sleeper?.cancel()
        sleeper = nil
        wakeUp?.resume()
        wakeUp = nil
    }
}
