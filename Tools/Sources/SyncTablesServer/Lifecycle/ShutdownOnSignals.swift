import Logging
import ServiceLifecycle
import UnixSignals

/// The foreground server's reaction to SIGINT and SIGTERM: the first drains (``ServerDrain``), ending the change
/// feeds at once (a drain never waits for them), and then shuts the server down gracefully, cutting off what
/// still runs at the drain timeout; a second stops at once.
struct ShutdownOnSignals: Sendable {
    let signals: UnixSignalsSequence
    let drain: ServerDrain
    let changes: ChangeHub?
    let configuration: SyncServerConfiguration

    /// Waits for signals until cancelled; `task` is the server's, which ends when the server stops.
    func watch(group: ServiceGroup, task: Task<Void, any Error>) async {
        var shutdown: Task<Void, Never>?
        defer { shutdown?.cancel() }
        for await signal in signals {
            guard shutdown == nil else {
                configuration.logger.notice("Second \(signal): stopping at once")
                task.cancel()
                return
            }
            shutdown = Task { await drainAndStop(after: signal, group: group, task: task) }
        }
    }

    private func drainAndStop(after signal: UnixSignal, group: ServiceGroup, task: Task<Void, any Error>) async {
        let timeout = configuration.drainTimeout
        let deadline = ContinuousClock.now + timeout
        drain.beginDraining()
        changes?.shutDown()
        configuration.logger.notice(
            "\(signal): /ready now answers 503; finishing the requests in flight (at most \(timeout))")
        await drain.waitUntilIdle(until: deadline)
        await group.triggerGracefulShutdown()
        // Whatever still runs at the deadline is cut off.
        guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil else { return }
        configuration.logger.warning("The drain timeout passed with requests still running: stopping them")
        task.cancel()
    }
}
