@_spi(SyncTablesTools) import SyncTablesCore

/// Fans elements out to any number of `AsyncStream` subscribers: the context's events, the live queries'
/// wake-ups, the engine's state, status and cycle reports, and the network monitors' reachability.
///
/// ```swift
/// let events = Broadcaster<SyncEvent>(bufferLimit: 1_000)
/// let stream = events.subscribe()          // hears what is published from now on
/// events.publish(.pushStarted(pendingOperations: 3))
///
/// let state = Broadcaster(current: SyncEngineState.idle)
/// let states = state.subscribe()           // starts with .idle
/// state.send(.syncing)                     // published: it changed
/// ```
///
/// - Buffering: a subscriber that falls behind keeps the newest `bufferLimit` elements and loses older ones
///   rather than growing memory (with a limit of 1, a burst of wake-ups wakes a live query once).
/// - Topics: a subscriber to a topic (a table name) hears only what is published about that topic, or about
///   none; a subscriber to no topic hears everything.
/// - Current value: a broadcaster made with ``init(current:bufferLimit:)`` remembers the latest element and
///   starts every new stream with it.
/// - Transform: a subscriber may map (or leave out) each element as it is published, e.g. to date it
///   with its own clock at that moment (``subscribe(to:_:)``).
/// - Finish: ``finish()`` ends every stream; a later subscriber's stream ends at once (after the current
///   value, if any).
///
/// Publishing without subscribers costs one lock, so the write path can always publish. Elements are yielded
/// with the lock held, so every subscriber sees them in the order they were published and a stream that
/// follows a current value always ends up with the latest one.
final class Broadcaster<Element: Sendable>: Sendable {
    /// One stream: what to do with an element published to it, and how to end it.
    private struct Subscriber: Sendable {
        let receive: @Sendable (Element) -> Void
        let finish: @Sendable () -> Void
    }

    private struct State {
        var nextID = 0
        /// The subscribers to no topic.
        var everything: [Int: Subscriber] = [:]
        /// The subscribers to one topic, by topic.
        var byTopic: [String: [Int: Subscriber]] = [:]
        /// The latest element, kept only by a broadcaster that replays it.
        var current: Element?
        var finished = false
    }

    /// How many undelivered elements a subscriber keeps.
    let bufferLimit: Int
    /// Whether new subscribers start with the latest element.
    private let replaysCurrent: Bool
    private let state: LockedState<State>

    /// A broadcaster of events: each subscriber hears what is published after it subscribed.
    init(bufferLimit: Int) {
        self.bufferLimit = bufferLimit
        self.replaysCurrent = false
        self.state = LockedState(State())
    }

    /// A broadcaster of a value that changes: each new stream starts with the current value, then hears
    /// every change.
    init(current: Element, bufferLimit: Int = 64) {
        self.bufferLimit = bufferLimit
        self.replaysCurrent = true
        self.state = LockedState(State(current: current))
    }

    /// A new stream of the elements published from now on (about `topic`, when given); it ends when the
    /// consumer stops iterating or at ``finish()``.
    func subscribe(to topic: String? = nil) -> AsyncStream<Element> {
        subscribe(to: topic) { $0 }
    }

    /// A new stream of what `transform` makes of each element published from now on (about `topic`, when
    /// given), without the elements it makes `nil` of; it ends when the consumer stops iterating or at
    /// ``finish()``.
    ///
    /// `transform` runs as the element is published, on the publisher's task and with the broadcaster's
    /// lock held: what it reads (say, a clock) is read at the moment of publishing, not when the consumer
    /// gets to the element, and elements it leaves out never wake the consumer. It must be quick and must
    /// not publish.
    func subscribe<Output: Sendable>(
        to topic: String? = nil, _ transform: @escaping @Sendable (Element) -> Output?
    ) -> AsyncStream<Output> {
        let (stream, continuation) = AsyncStream<Output>.makeStream(bufferingPolicy: .bufferingNewest(bufferLimit))
        let subscriber = Subscriber(
            receive: { element in
                if let output = transform(element) { continuation.yield(output) }
            },
            finish: { continuation.finish() })
        state.withLock { state in
            if replaysCurrent, let current = state.current { subscriber.receive(current) }
            guard !state.finished else {
                // No termination handler is set yet, so finishing under the lock is safe.
                continuation.finish()
                return
            }
            let id = state.nextID
            state.nextID += 1
            continuation.onTermination = { [weak self] _ in self?.remove(id, topic: topic) }
            if let topic {
                state.byTopic[topic, default: [:]][id] = subscriber
            } else {
                state.everything[id] = subscriber
            }
        }
        return stream
    }

    /// Delivers `element` to every subscriber to `topic` and to every subscriber to no topic; without a
    /// topic, to every subscriber.
    func publish(_ element: Element, about topic: String? = nil) {
        state.withLock { state in
            if replaysCurrent { state.current = element }
            Self.deliver(element, about: topic, in: state)
        }
    }

    /// Ends every subscriber's stream.
    func finish() {
        let subscribers = state.withLock { state in
            state.finished = true
            defer {
                state.everything = [:]
                state.byTopic = [:]
            }
            return Array(state.everything.values) + state.byTopic.values.flatMap(\.values)
        }
        // Outside the lock: finishing a stream runs its termination handler, which takes the lock.
        for subscriber in subscribers {
            subscriber.finish()
        }
    }

    /// How many streams are open.
    var subscriberCount: Int {
        state.withLock { state in state.byTopic.values.reduce(state.everything.count) { $0 + $1.count } }
    }

    private static func deliver(_ element: Element, about topic: String?, in state: State) {
        for subscriber in state.everything.values {
            subscriber.receive(element)
        }
        if let topic {
            for subscriber in state.byTopic[topic, default: [:]].values {
                subscriber.receive(element)
            }
        } else {
            for subscribers in state.byTopic.values {
                for subscriber in subscribers.values { subscriber.receive(element) }
            }
        }
    }

    private func remove(_ id: Int, topic: String?) {
        state.withLock { state in
            guard let topic else {
                state.everything.removeValue(forKey: id)
                return
            }
            state.byTopic[topic]?.removeValue(forKey: id)
            if state.byTopic[topic]?.isEmpty == true { state.byTopic.removeValue(forKey: topic) }
        }
    }
}

// MARK: A value that changes

extension Broadcaster where Element: Equatable {
    /// The current value of a broadcaster made with ``init(current:bufferLimit:)``.
    ///
    /// A broadcaster of events has none: asking it is a programming error.
    var value: Element {
        state.withLock { state in
            guard let current = state.current else {
                preconditionFailure("Broadcaster.value asked of a broadcaster made without a current value")
            }
            return current
        }
    }

    /// Sets the current value; subscribers hear of it only when it changed.
    func send(_ value: Element) {
        state.withLock { state in
            guard state.current != value else { return }
            state.current = value
            Self.deliver(value, about: nil, in: state)
        }
    }
}

// MARK: Wake-ups by table

extension Broadcaster where Element == Void {
    /// A stream that yields after each committed change to `table`: what a live query waits on.
    func changes(of table: String) -> AsyncStream<Void> {
        subscribe(to: table)
    }

    /// Wakes every subscriber to `table` (and every subscriber to no topic).
    func notify(_ table: String) {
        publish((), about: table)
    }
}
