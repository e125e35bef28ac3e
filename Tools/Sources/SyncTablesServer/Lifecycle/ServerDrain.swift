import Foundation

/// Whether the server is draining, and how many requests it is serving: `/ready` reads the first, and a
/// shutdown waits for the second to reach zero before it closes the listener.
final class ServerDrain: @unchecked Sendable {
    private let lock = NSLock()
    private var draining = false
    private var inFlight = 0
    private var idleWaiters: [UUID: CheckedContinuation<Void, Never>] = [:]
    private var expired: Set<UUID> = []

    /// Whether a shutdown has begun (`/ready` then answers 503).
    var isDraining: Bool {
        lock.withLock { draining }
    }

    /// Marks the server as shutting down: from now on `/ready` answers 503.
    func beginDraining() {
        lock.withLock { draining = true }
    }

    /// Runs one request, counted as in flight while it runs.
    func serving<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        lock.withLock { inFlight += 1 }
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
            lock.lock()
            if inFlight == 0 || expired.remove(id) != nil {
                lock.unlock()
                continuation.resume()
            } else {
                idleWaiters[id] = continuation
                lock.unlock()
            }
        }
        timer.cancel()
    }

    private func expire(_ id: UUID) {
        lock.lock()
        if let waiter = idleWaiters.removeValue(forKey: id) {
            lock.unlock()
            waiter.resume()
        } else {
            expired.insert(id)
            lock.unlock()
        }
    }

    private func finished() {
        lock.lock()
        inFlight -= 1
        var waiters: [CheckedContinuation<Void, Never>] = []
        if inFlight == 0 {
            waiters = Array(idleWaiters.values)
            idleWaiters = [:]
        }
        lock.unlock()
        for waiter in waiters { waiter.resume() }
    }
}
