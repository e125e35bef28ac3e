import Foundation
@_spi(SyncTablesTools) import SyncTablesCore
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// The hand-over between the task that encodes a streamed batch and the store's thread that writes it.
@Suite("ChunkChannel")
struct ChunkChannelTests {
    /// A chunk whose release is observable.
    final class Tracked: Sendable {
        let released: LockedState<Bool>
        init(_ released: LockedState<Bool>) { self.released = released }
        deinit { released.withLock { $0 = true } }
    }

    struct Chunk: Sendable {
        var value: Int
        var tracked: Tracked?
    }

    @Test func theReceiverGetsEveryChunkInOrderThenTheEndAndTheSenderLearnsItWasTaken() async throws {
        let channel = ChunkChannel<Chunk>()
        for value in 0..<3 { channel.send(Chunk(value: value)) }
        channel.finish()
        let receiver = Thread.detachedReceiving(channel)
        #expect(await channel.receiverOutcome())
        #expect(receiver.values() == [0, 1, 2])
    }

    @Test func aStoppedOrAbandonedReceiverTellsTheSenderTheStreamWasNotTaken() async throws {
        let stopped = ChunkChannel<Chunk>()
        stopped.send(Chunk(value: 1))
        stopped.stop()
        #expect(stopped.isStopped)
        #expect(!(await stopped.receiverOutcome()))

        let abandoned = ChunkChannel<Chunk>()
        abandoned.send(Chunk(value: 1))
        _ = try abandoned.next()
        abandoned.abandon()
        #expect(!abandoned.isStopped, "an abandoned stream is still wanted: the sender keeps encoding")
        abandoned.finish()
        #expect(!(await abandoned.receiverOutcome()), "the first outcome counts")
    }

    @Test func aSenderWaitingBeforeTheReceiverFinishesIsResumedByTheEnd() async throws {
        let channel = ChunkChannel<Chunk>()
        async let outcome = channel.receiverOutcome()
        try await Task.sleep(for: .milliseconds(20))
        channel.finish()
        #expect(try channel.next() == nil)
        #expect(await outcome)
    }

    @Test func aFailedSenderIsRethrownAndTheStreamCountsAsNotTaken() async throws {
        struct Failure: Error {}
        let channel = ChunkChannel<Chunk>()
        channel.finish(throwing: Failure())
        #expect(throws: Failure.self) { try channel.next() }
        #expect(!(await channel.receiverOutcome()))
    }

    @Test func aTakenChunkIsNoLongerHeldByTheChannel() throws {
        let released = LockedState(false)
        let channel = ChunkChannel<Chunk>()
        channel.send(Chunk(value: 1, tracked: Tracked(released)))
        do {
            let chunk = try channel.next()
            withExtendedLifetime(chunk) {
                #expect(chunk?.value == 1)
                #expect(!released.withLock { $0 }, "the receiver holds it")
            }
        }
        #expect(released.withLock { $0 }, "only the receiver held the chunk, and it is gone")
        #expect(withExtendedLifetime(channel) { true })
    }
}

extension Thread {
    /// Takes every chunk of `channel` on a thread of its own (the receiver blocks, as the store's thread does).
    fileprivate static func detachedReceiving(_ channel: ChunkChannel<ChunkChannelTests.Chunk>) -> ReceivedValues {
        let received = ReceivedValues()
        let thread = Thread {
            while let chunk = try? channel.next() { received.append(chunk.value) }
            received.done()
        }
        thread.start()
        return received
    }
}

/// The values a receiver thread took, available once it took the end.
final class ReceivedValues: Sendable {
    private let state = LockedState((values: [Int](), done: false))
    private let finished = DispatchSemaphore(value: 0)

    func append(_ value: Int) { state.withLock { $0.values.append(value) } }
    func done() { finished.signal() }

    func values() -> [Int] {
        finished.wait()
        return state.withLock { $0.values }
    }
}
