@_spi(SyncTablesTools) import SyncTablesCore
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("Broadcaster")
struct BroadcasterTests {
    @Test func aSubscriberHearsWhatIsPublishedAfterItSubscribedInOrder() async {
        let events = Broadcaster<Int>(bufferLimit: 10)
        events.publish(0)
        let stream = events.subscribe()
        for number in 1...3 { events.publish(number) }
        events.finish()
        #expect(await Array(stream) == [1, 2, 3])
    }

    @Test func aSubscriberThatFallsBehindKeepsTheNewestElements() async {
        let events = Broadcaster<Int>(bufferLimit: 2)
        let stream = events.subscribe()
        for number in 1...5 { events.publish(number) }
        events.finish()
        #expect(await Array(stream) == [4, 5])
    }

    @Test func aTableWakeUpReachesOnlyThatTablesSubscribersAndABurstWakesThemOnce() async {
        let changes = Broadcaster<Void>(bufferLimit: 1)
        let todos = changes.changes(of: "TodoItem")
        let notes = changes.changes(of: "Note")
        for _ in 0..<3 { changes.notify("TodoItem") }
        changes.finish()
        #expect(await Array(todos).count == 1)
        #expect(await Array(notes).isEmpty)
    }

    @Test func aSubscriberToNoTopicHearsEveryTopic() async {
        let changes = Broadcaster<String>(bufferLimit: 10)
        let everything = changes.subscribe()
        changes.publish("a", about: "TodoItem")
        changes.publish("b", about: "Note")
        changes.finish()
        #expect(await Array(everything) == ["a", "b"])
    }

    @Test func aTransformingSubscriberHearsWhatItMapsAtPublishTimeAndNothingItLeavesOut() async {
        let events = Broadcaster<Int>(bufferLimit: 10)
        let counter = LockedCounter()
        let stream = events.subscribe { number -> String? in
            number.isMultiple(of: 2) ? "\(number)@\(counter.next())" : nil
        }
        for number in 1...4 { events.publish(number) }
        // Mapped as each was published, before the consumer read any of them.
        #expect(counter.value == 2)
        events.finish()
        #expect(await Array(stream) == ["2@1", "4@2"])
    }

    @Test func aValueBroadcasterStartsEachStreamWithTheCurrentValueAndPublishesOnlyChanges() async {
        let state = Broadcaster(current: "idle")
        state.send("syncing")
        let stream = state.subscribe()
        state.send("syncing")
        state.send("idle")
        state.finish()
        #expect(state.value == "idle")
        #expect(await Array(stream) == ["syncing", "idle"])
    }

    @Test func aStreamEndsAtFinishAndOneOpenedAfterEndsAtOnceAfterTheCurrentValue() async {
        let state = Broadcaster(current: 1)
        let before = state.subscribe()
        state.finish()
        let after = state.subscribe()
        #expect(await Array(before) == [1])
        #expect(await Array(after) == [1])
        let events = Broadcaster<Int>(bufferLimit: 10)
        events.finish()
        #expect(await Array(events.subscribe()).isEmpty)
    }

    @Test func aSubscriberThatStopsIteratingIsRemoved() async {
        let events = Broadcaster<Int>(bufferLimit: 10)
        let task = Task {
            for await _ in events.subscribe() {}
        }
        task.cancel()
        await task.value
        // Publishing to no one must not fail; the stream's end removed its continuation.
        events.publish(1)
        #expect(events.subscriberCount == 0)
    }
}

/// A count that a `@Sendable` closure can move on.
private final class LockedCounter: Sendable {
    private let count = LockedState(0)

    var value: Int { count.withLock { $0 } }

    func next() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }
}

extension Array {
    /// Every element of an asynchronous sequence that ends.
    fileprivate init<Elements: AsyncSequence>(_ elements: Elements) async where Elements.Element == Element {
        var collected: [Element] = []
        do {
            for try await element in elements { collected.append(element) }
        } catch {}
        self = collected
    }
}
