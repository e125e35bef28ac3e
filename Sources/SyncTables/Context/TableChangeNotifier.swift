import Foundation

/// Tells live queries that a table changed: the change-notification mechanism behind ``SyncQuery/observe()``.
///
/// After every committed write to a table (local writes now; pull, push results and purge later) the
/// context calls ``notify(_:)``. Each observer holds a stream that buffers at most one pending signal,
/// so a burst of writes wakes an observer once and it re-reads the latest state.
final class TableChangeNotifier: @unchecked Sendable {
    private let lock = NSLock()
    private var observers: [String: [UUID: AsyncStream<Void>.Continuation]] = [:]

    /// A stream that yields after each committed change to `table`, until the consumer stops iterating.
    func changes(of table: String) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        continuation.onTermination = { [weak self] _ in self?.remove(id, table: table) }
        lock.withLock { observers[table, default: [:]][id] = continuation }
        return stream
    }

    /// Signals every observer of `table`.
    func notify(_ table: String) {
        let current = lock.withLock { observers[table].map { Array($0.values) } ?? [] }
        for continuation in current {
            continuation.yield()
        }
    }

    /// Ends every observer's stream.
    func finish() {
        let current = lock.withLock {
            defer { observers.removeAll() }
            return observers.values.flatMap(\.values)
        }
        for continuation in current {
            continuation.finish()
        }
    }

    private func remove(_ id: UUID, table: String) {
        lock.withLock {
            observers[table]?.removeValue(forKey: id)
            if observers[table]?.isEmpty == true { observers.removeValue(forKey: table) }
        }
    }
}
