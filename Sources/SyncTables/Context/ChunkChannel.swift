import Foundation

/// Hands the chunks of a large batch from the task that encodes them to the store's thread, which writes
/// them inside one transaction as they arrive, so encoding and writing overlap.
///
/// The receiving side blocks, so only a store that runs its transactions on a thread of its own
/// (``DedicatedThreadStore``) may call ``next()``; blocking a thread of the shared pool there could
/// starve the very task that sends. The sender never blocks: it can run ahead by the whole batch, which
/// is the memory an unpipelined batch holds anyway.
///
/// `@unchecked Sendable` is sound because every access to the state goes through `condition`.
final class ChunkChannel<Chunk: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var chunks: [Chunk] = []
    /// How many of `chunks` were taken (a batch has a few dozen chunks at most: no need to shrink).
    private var taken = 0
    private var finished = false
    private var failure: (any Error)?
    private var stopped = false

    /// Queues a chunk for the receiver.
    func send(_ chunk: Chunk) {
        condition.lock()
        defer { condition.unlock() }
        chunks.append(chunk)
        condition.signal()
    }

    /// Ends the stream: after the queued chunks, ``next()`` returns `nil`, or throws `error` if one is given.
    func finish(throwing error: (any Error)? = nil) {
        condition.lock()
        defer { condition.unlock() }
        finished = true
        failure = error
        condition.signal()
    }

    /// The next chunk, waiting for it; `nil` once the sender finished and every chunk was taken.
    func next() throws -> Chunk? {
        condition.lock()
        defer { condition.unlock() }
        while taken == chunks.count && !finished {
            condition.wait()
        }
        if taken < chunks.count {
            taken += 1
            return chunks[taken - 1]
        }
        if let failure { throw failure }
        return nil
    }

    /// Tells the sender the receiver gave up (its transaction failed), so it can stop encoding.
    func stop() {
        condition.lock()
        defer { condition.unlock() }
        stopped = true
    }

    /// `true` after ``stop()``.
    var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }

    /// The error the sender finished with, if any.
    var senderFailure: (any Error)? {
        condition.lock()
        defer { condition.unlock() }
        return failure
    }
}
