import Foundation

/// Hands the chunks of a large batch from the task that encodes them to the store's thread, which writes
/// them inside one transaction as they arrive, so encoding and writing overlap.
///
/// The receiving side blocks, so only a store that runs its transactions on a thread of its own
/// (``StoreCapabilities/hasDedicatedThread``) may call ``next()``; blocking a thread of the shared pool there could
/// starve the very task that sends. The sender never blocks: it can run ahead by the whole batch, which
/// is the memory an unpipelined batch holds anyway.
///
/// `@unchecked Sendable` is sound because every access to the state goes through `condition`.
final class ChunkChannel<Chunk: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    /// Every chunk sent, in order; a taken one is set to `nil` (a batch has a few dozen chunks at most: no
    /// need to shrink the array).
    private var chunks: [Chunk?] = []
    /// How many of `chunks` were taken.
    private var taken = 0
    private var finished = false
    private var failure: (any Error)?
    private var stopped = false
    /// `true` once the receiver took the end of the stream, `false` once it gave up; `nil` before.
    private var outcome: Bool?
    private var outcomeWaiters: [CheckedContinuation<Bool, Never>] = []

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
    ///
    /// A taken chunk is no longer held here: the receiver's copy and the sender's decide when it is freed.
    func next() throws -> Chunk? {
        condition.lock()
        while taken == chunks.count && !finished {
            condition.wait()
        }
        if taken < chunks.count {
            let chunk = chunks[taken]
            chunks[taken] = nil
            taken += 1
            condition.unlock()
            return chunk
        }
        let failure = self.failure
        let waiters = settle(failure == nil)
        condition.unlock()
        resume(waiters, with: failure == nil)
        if let failure { throw failure }
        return nil
    }

    /// Tells the sender the receiver gave up (its transaction failed), so it can stop encoding.
    func stop() {
        condition.lock()
        stopped = true
        let waiters = settle(false)
        condition.unlock()
        resume(waiters, with: false)
    }

    /// Tells the sender the receiver gave up on the stream but the batch is still wanted (it is written
    /// another way), so the sender goes on encoding.
    func abandon() {
        condition.lock()
        let waiters = settle(false)
        condition.unlock()
        resume(waiters, with: false)
    }

    /// Waits until the receiver took the end of the stream (`true`) or gave up (`false`).
    ///
    /// The sender calls it after ``finish(throwing:)`` to learn whether the batch was written as streamed.
    func receiverOutcome() async -> Bool {
        await withCheckedContinuation { continuation in
            condition.lock()
            if let outcome {
                condition.unlock()
                continuation.resume(returning: outcome)
            } else {
                outcomeWaiters.append(continuation)
                condition.unlock()
            }
        }
    }

    /// Records the receiver's outcome (the first one counts) and hands back the waiters to resume once the
    /// lock is released. Call with `condition` locked.
    private func settle(_ taken: Bool) -> [CheckedContinuation<Bool, Never>] {
        guard outcome == nil else { return [] }
        outcome = taken
        defer { outcomeWaiters = [] }
        return outcomeWaiters
    }

    private func resume(_ waiters: [CheckedContinuation<Bool, Never>], with outcome: Bool) {
        for waiter in waiters { waiter.resume(returning: outcome) }
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
