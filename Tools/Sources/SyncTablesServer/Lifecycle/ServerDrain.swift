import Foundation
@_spi(SyncTablesTools) import SyncTablesCore

/// Whether the server is draining, and how many requests it is serving: `/ready` reads the first, and a
/// shutdown waits for the second to reach zero before it closes the listener.
final class ServerDrain: Sendable {
    private struct State {
        var draining = false
        var inFlight = 0
        var idleWaiters: [UUID: CheckedContinuation<Void, Never>] = [:]
        var expired: Set<UUID> = []
    }

    private let state = LockedState(State())

    /// Whether a shutdown has begun (`/ready` then answers 503).
    var isDraining: Bool {
        state.withLock { $0.draining }
    }

    /// Marks the server as shutting down: from now on `/ready` answers 503.
    func beginDraining() {
        state.withLock { $0.draining = true }
    }

    /// Runs one request, counted as in flight while it runs.
    func serving<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        state.withLock { $0.inFlight += 1 }
        defer { finished() }
        return try await body()
    }

    /// Returns once no request is in flight, or when `deadline` passes, whichever comes first.
    func waitUntilIdle(until deadline: ContinuousClock.Instant) async {
        let id = UUID()
        let timer = Task {
            guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil else { return }
            self.expire(id)
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state in
                if state.inFlight == 0 || state.expired.remove(id) != nil { return true }
                state.idleWaiters[id] = continuation
                return false
            }
            if idle { continuation.resume() }
        }
        timer.cancel()
    }

    private func expire(_ id: UUID) {
        let waiter = state.withLock { state in
            let waiter = state.idleWaiters.removeValue(forKey: id)
            if waiter == nil { state.expired.insert(id) }
            return waiter
        }
        waiter?.resume()
    }

    private func finished() {
        let waiters = state.withLock { state in
            state.inFlight -= 1
            guard state.inFlight == 0 else { return [CheckedContinuation<Void, Never>]() }
            defer { state.idleWaiters = [:] }
            return Array(state.idleWaiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }
}
