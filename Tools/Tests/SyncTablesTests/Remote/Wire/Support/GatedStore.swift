import Foundation

@_spi(SyncTablesTools) @testable import SyncTables

/// A store wrapper that can hold one `write` at its start (before its transaction begins) until the test
/// releases it, to line up a local write behind a push's claim. Only for tests named `…WithInjectedGate`.
struct GatedStore: StoreWrapper {
    let base: any LocalStore
    let gate = Gate()

    /// A one-shot gate: the next write after `arm()` reports its arrival and waits for `release()`.
    final class Gate: @unchecked Sendable {
        private let lock = NSLock()
        private var armed = false
        private var arrived = false
        private var released = false

        func arm() { lock.withLock { armed = true } }
        func release() { lock.withLock { released = true } }
        var hasArrival: Bool { lock.withLock { arrived } }

        /// Called by each write; only the armed one waits.
        func pass() async throws {
            let mustWait = lock.withLock {
                guard armed else { return false }
                (armed, arrived) = (false, true)
                return true
            }
            guard mustWait else { return }
            while !lock.withLock({ released }) { try await Task.sleep(for: .milliseconds(2)) }
        }
    }

    var preferredTaskExecutor: (any TaskExecutor)? { base.preferredTaskExecutor }

    func write<Result: Sendable>(
        _ body: @Sendable (any StoreTransaction) throws -> Result
    ) async throws -> Result {
        try await gate.pass()
        return try await base.write(body)
    }
}
