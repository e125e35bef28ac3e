import Foundation

/// A current value and the streams that follow it: each new stream starts with the current value, then
/// gets every change (only the newest when a subscriber falls behind).
final class ValueBroadcaster<Value: Sendable & Equatable>: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Value
    private var subscribers: [UUID: AsyncStream<Value>.Continuation] = [:]

    init(_ initial: Value) {
        current = initial
    }

    var value: Value { lock.withLock { current } }

    func subscribe() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let id = UUID()
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        // Yielding under the lock keeps every stream's order the order of the changes.
        lock.withLock {
            subscribers[id] = continuation
            continuation.yield(current)
        }
        return stream
    }

    /// Sets the value; subscribers hear of it only when it changed.
    func send(_ value: Value) {
        lock.withLock {
            guard current != value else { return }
            current = value
            for continuation in subscribers.values { continuation.yield(value) }
        }
    }

    private func remove(_ id: UUID) {
        _ = lock.withLock { subscribers.removeValue(forKey: id) }
    }
}
