import Foundation

/// Fans events out to any number of `AsyncStream` subscribers; each subscriber gets every event published
/// after it subscribed.
///
/// Publishing without subscribers costs one lock, so the write path can always publish. A subscriber that
/// falls behind keeps the newest ``bufferLimit`` events and loses older ones rather than growing memory.
final class EventBroadcaster<Event: Sendable>: @unchecked Sendable {
    /// How many undelivered events a subscriber keeps.
    let bufferLimit: Int
    private let lock = NSLock()
    private var subscribers: [UUID: AsyncStream<Event>.Continuation] = [:]

    init(bufferLimit: Int = 1_000) {
        self.bufferLimit = bufferLimit
    }

    /// A new stream of the events published from now on; it ends when the consumer stops iterating.
    func subscribe() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(bufferLimit))
        let id = UUID()
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        lock.withLock { subscribers[id] = continuation }
        return stream
    }

    /// Delivers `event` to every current subscriber.
    func publish(_ event: Event) {
        let current = lock.withLock { subscribers.isEmpty ? [] : Array(subscribers.values) }
        for continuation in current {
            continuation.yield(event)
        }
    }

    /// Ends every subscriber's stream.
    func finish() {
        let current = lock.withLock {
            defer { subscribers.removeAll() }
            return Array(subscribers.values)
        }
        for continuation in current {
            continuation.finish()
        }
    }

    private func remove(_ id: UUID) {
        _ = lock.withLock { subscribers.removeValue(forKey: id) }
    }
}
