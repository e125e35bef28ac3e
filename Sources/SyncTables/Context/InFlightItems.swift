import Foundation
@_spi(SyncTablesTools) import SyncTablesCore

/// The items whose operation a push is sending right now, as `<table>|<itemId>` keys.
///
/// Push adds an item inside the store transaction that claims its operation, and a local write checks
/// inside its own transaction: store transactions run one at a time, so a local write either commits
/// before the claim (and is sent) or sees the item in flight, rolls back and waits.
final class InFlightItems: Sendable {
    private let keys = LockedState<Set<String>>([])

    func insert(table: String, itemId: String) {
        _ = keys.withLock { $0.insert(PendingOperation.rowKey(table: table, itemId: itemId)) }
    }

    func remove(table: String, itemId: String) {
        _ = keys.withLock { $0.remove(PendingOperation.rowKey(table: table, itemId: itemId)) }
    }

    func removeAll() {
        keys.withLock { $0.removeAll() }
    }

    /// Whether any of these items of `table` is in flight.
    func containsAny(table: String, itemIds: some Sequence<String>) -> Bool {
        keys.withLock { keys in
            guard !keys.isEmpty else { return false }
            return itemIds.contains { keys.contains(PendingOperation.rowKey(table: table, itemId: $0)) }
        }
    }
}

/// Thrown inside a local write's transaction when one of its items went in flight after the write last
/// checked; the write rolls back, waits for the push to finish with the item, and runs again.
struct ItemsInFlight: Error {}
