import Foundation
@_spi(SyncTablesTools) import SyncTablesCore

/// The items whose operation a push is sending right now, as `<table>|<itemId>` keys, and the local writes
/// waiting for them.
///
/// Push adds an item inside the store transaction that claims its operation, and a local write checks
/// inside its own transaction: store transactions run one at a time, so a local write either commits
/// before the claim (and is sent) or sees the item in flight, rolls back and waits.
final class InFlightItems: Sendable {
    private struct State {
        var keys: Set<String> = []
        var waiters: [CheckedContinuation<Void, Never>] = []

        func containsAny(table: String, itemIds: some Sequence<String>) -> Bool {
            guard !keys.isEmpty else { return false }
            return itemIds.contains { keys.contains(PendingOperation.rowKey(table: table, itemId: $0)) }
        }

        mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
            defer { waiters.removeAll() }
            return waiters
        }
    }

    private let state = LockedState(State())

    func insert(table: String, itemId: String) {
        _ = state.withLock { $0.keys.insert(PendingOperation.rowKey(table: table, itemId: itemId)) }
    }

    /// Ends an item's push and wakes the writers waiting for an item.
    func end(table: String, itemId: String) {
        wake(
            state.withLock { state in
                state.keys.remove(PendingOperation.rowKey(table: table, itemId: itemId))
                return state.takeWaiters()
            })
    }

    /// Ends every flight (after a claim that failed and rolled back whatever it had marked).
    func endAll() {
        wake(
            state.withLock { state in
                state.keys.removeAll()
                return state.takeWaiters()
            })
    }

    /// Whether any of these items of `table` is in flight.
    func containsAny(table: String, itemIds: some Sequence<String>) -> Bool {
        state.withLock { $0.containsAny(table: table, itemIds: itemIds) }
    }

    /// Waits while any of these items is being pushed, so a local edit never races the server's answer.
    func waitUntilLanded(table: String, itemIds: [String]) async {
        while containsAny(table: table, itemIds: itemIds) {
            await withCheckedContinuation { waiter in
                let parked = state.withLock { state in
                    guard state.containsAny(table: table, itemIds: itemIds) else { return false }
                    state.waiters.append(waiter)
                    return true
                }
                if !parked { waiter.resume() }
            }
        }
    }

    private func wake(_ waiters: [CheckedContinuation<Void, Never>]) {
        for waiter in waiters { waiter.resume() }
    }
}

/// Thrown inside a local write's transaction when one of its items went in flight after the write last
/// checked; the write rolls back, waits for the push to finish with the item, and runs again.
struct ItemsInFlight: Error {}
