import Foundation

// The engine and its network monitor: offline sends nothing, reconnect syncs.

extension SyncEngine {
    /// Takes the monitor's current word before the first cycle, then follows it.
    func listenToNetwork() async {
        guard let networkMonitor, networkTask == nil else { return }
        for await reachability in networkMonitor.reachability() {
            networkChanged(reachability)
            break
        }
        let changes = networkMonitor.reachability()
        networkTask = Task { [weak self] in
            for await reachability in changes { await self?.networkChanged(reachability) }
        }
    }

    /// Offline: the running cycle stops between two operations and nothing is sent. Back online: a failed
    /// cycle's backoff is forgotten (the failure was the network's), an open breaker allows one probe before
    /// its cooldown ends, and the definitions that sync on ``SyncTrigger/networkReconnect`` sync at once,
    /// with the queue.
    func networkChanged(_ reachability: NetworkReachability) {
        switch reachability {
        case .offline:
            guard !isOffline else { return }
            isOffline = true
            cycleTask?.cancel()
            setState(settledState)
        case .online:
            guard isOffline else { return }
            isOffline = false
            if case .backoff = settledState { settledState = .idle }
            // The failures that opened the breaker may have been the network's: one probe may tell at once.
            if case .paused = settledState { reconnectProbeAllowed = true }
            setState(settledState)
            scheduler.fire(.networkReconnect, at: clock.now())
            wake()
        }
    }
}
