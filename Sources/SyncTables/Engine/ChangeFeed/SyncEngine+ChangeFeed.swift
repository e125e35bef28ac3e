import Foundation

// The engine and the server's change feed: one connection while the engine is started, online, in the
// foreground and not blocked on credentials; what it hears makes the definitions of the changed tables due.

extension SyncEngine {
    /// The tables of the definitions that sync on ``SyncTrigger/serverChange``.
    var serverChangeTables: Set<String> {
        Set(definitions.filter { $0.schedule.fires(on: .serverChange) }.map(\.table))
    }

    /// Opens or closes the change feed connection as the engine's situation now asks.
    func followChangeFeed() {
        let wanted =
            loopTask != nil && !isOffline && scheduler.isActive && settledState != .blockedAuth
            && settledState != .stopped && context.client != nil && !serverChangeTables.isEmpty
        if wanted, changeWatcher == nil, let client = context.client {
            let reporter = reporter
            let watcher = ServerChangeWatcher(
                client: client, tables: serverChangeTables, configuration: configuration, clock: clock,
                unitRandom: unitRandom, logger: reporter.logger,
                show: { reporter.changeFeedChanged($0) },
                react: { [weak self] reaction in await self?.serverChanged(reaction) })
            changeWatcher = watcher
            watcher.start()
        } else if !wanted, let watcher = changeWatcher {
            changeWatcher = nil
            watcher.stop()
            reporter.changeFeedChanged(.off)
        }
    }

    /// What the feed heard: the definitions of the table (or all of them, to catch up) are due once the
    /// debounce passes, so a burst of changes is one cycle.
    func serverChanged(_ reaction: ServerChangeWatcher.Reaction) {
        guard changeWatcher != nil else { return }
        let table: String? =
            switch reaction {
            case .changed(let table): table
            case .catchUp: nil
            }
        if scheduler.serverChange(table: table, at: clock.now(), debounce: configuration.serverChangeDebounce) {
            wake()
        }
    }
}
