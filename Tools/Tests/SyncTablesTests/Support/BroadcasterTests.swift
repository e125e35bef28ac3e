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
