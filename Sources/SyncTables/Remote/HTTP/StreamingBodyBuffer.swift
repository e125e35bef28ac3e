@_spi(SyncTablesTools) import SyncTablesCore

/// What a transport does, on behalf of the reader of a streaming body, to the transfer behind it.
protocol StreamingTransferControl: Sendable {
    /// Receive again: the reader caught up after the buffer asked the transport to pause.
    func resumeReceiving()
    /// Abandon the transfer and close its connection: the reader was cancelled or went away.
    func cancelTransfer()
}

/// The chunks of one streaming body that arrived and were not read yet, between the transport that receives
/// them and the ``StreamingResponse/body`` that hands them out.
///
/// The buffer is bounded so that a reader that does not keep up slows the transfer instead of filling memory:
/// once it holds `limit` bytes, ``hasRoom()`` answers `false` and marks the producer paused (the transport
/// stops receiving); when the reader has brought it below half the limit it calls the control's
/// ``StreamingTransferControl/resumeReceiving()``. Half, so that a paused transfer resumes for more than one
/// chunk at a time.
///
/// The producer side runs on the transport's own thread or queue, the reader on any task; every part of the
/// state is behind the lock.
final class StreamingBodyBuffer: Sendable {
    /// The default bound on unread bytes per streaming response.
    static let defaultLimit = 1 << 20

    private enum Ending {
        case open
        case finished
        case failed(any Error)
    }

    private struct State {
        var chunks: [[UInt8]] = []
        /// The index of the next unread chunk (read chunks are dropped in batches, not one by one).
        var nextChunk = 0
        var bufferedBytes = 0
        var isProducerPaused = false
        var ending = Ending.open
        var waitingReader: CheckedContinuation<[UInt8]?, any Error>?
    }

    /// The most unread bytes the buffer takes before it asks the producer to pause (one more chunk may
    /// arrive after that).
    let limit: Int
    private let state = LockedState(State())

    init(limit: Int = StreamingBodyBuffer.defaultLimit) {
        self.limit = max(1, limit)
    }

    // MARK: Producer (the transport)

    /// `true` when there is room for another chunk; otherwise `false`, and the producer counts as paused
    /// until the control's ``StreamingTransferControl/resumeReceiving()`` is called.
    func hasRoom() -> Bool {
        state.withLock { state in
            guard state.bufferedBytes >= limit else { return true }
            state.isProducerPaused = true
            return false
        }
    }

    /// Stores a chunk for the reader (empty chunks, and chunks after the end, are ignored).
    func append(_ chunk: [UInt8]) {
        guard !chunk.isEmpty else { return }
        let reader = state.withLock { state -> CheckedContinuation<[UInt8]?, any Error>? in
            guard case .open = state.ending else { return nil }
            // A reader waits only on an empty buffer: hand the chunk straight over.
            if let reader = state.waitingReader {
                state.waitingReader = nil
                return reader
            }
            state.chunks.append(chunk)
            state.bufferedBytes += chunk.count
            return nil
        }
        reader?.resume(returning: chunk)
    }

    /// Ends the body: normally (`error` is `nil`) or with the error; the reader still gets the chunks before
    /// it. Only the first end counts.
    func end(throwing error: (any Error)?) {
        let reader = state.withLock { state -> CheckedContinuation<[UInt8]?, any Error>? in
            guard case .open = state.ending else { return nil }
            state.ending = error.map { .failed($0) } ?? .finished
            defer { state.waitingReader = nil }
            return state.waitingReader
        }
        if let error { reader?.resume(throwing: error) } else { reader?.resume(returning: nil) }
    }

    /// `true` once the body ended (or its reader was cancelled), whether or not every chunk was read.
    var hasEnded: Bool {
        state.withLock { state in
            if case .open = state.ending { return false }
            return true
        }
    }

    // MARK: Reader

    /// The next chunk, `nil` at the end of the body; throws the error the body ended with.
    ///
    /// Cancelling the calling task throws `CancellationError` and cancels the transfer.
    func next(control: any StreamingTransferControl) async throws -> [UInt8]? {
        let chunk = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UInt8]?, any Error>) in
                let outcome = state.withLock { state -> Result<[UInt8]?, any Error>? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if case .failed(let error as CancellationError) = state.ending { return .failure(error) }
                    if let chunk = Self.takeChunk(&state) { return .success(chunk) }
                    switch state.ending {
                    case .failed(let error): return .failure(error)
                    case .finished: return .success(nil)
                    case .open:
                        state.waitingReader = continuation
                        return nil
                    }
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            end(throwing: CancellationError())
            control.cancelTransfer()
        }
        if readerCaughtUp() { control.resumeReceiving() }
        return chunk
    }

    /// `true`, once, when the producer is paused and the reader brought the buffer down to half the limit.
    private func readerCaughtUp() -> Bool {
        state.withLock { state in
            guard state.isProducerPaused, state.bufferedBytes <= limit / 2 else { return false }
            state.isProducerPaused = false
            return true
        }
    }

    private static func takeChunk(_ state: inout State) -> [UInt8]? {
        guard state.nextChunk < state.chunks.count else { return nil }
        let chunk = state.chunks[state.nextChunk]
        state.nextChunk += 1
        state.bufferedBytes -= chunk.count
        if state.nextChunk == state.chunks.count {
            state.chunks.removeAll(keepingCapacity: true)
            state.nextChunk = 0
        } else if state.nextChunk >= 64 {
            state.chunks.removeFirst(state.nextChunk)
            state.nextChunk = 0
        }
        return chunk
    }

    /// The body a ``StreamingResponse`` hands out, reading from this buffer.
    func makeBody(control: any StreamingTransferControl) -> StreamingResponse.Body {
        StreamingResponse.Body(reader: StreamingBodyReader(buffer: self, control: control))
    }
}

/// The reading end of a streaming body, owned by the body and its iterators alone: when they are all gone
/// before the body ended, so is the reader, and its `deinit` cancels the transfer.
final class StreamingBodyReader: Sendable {
    let buffer: StreamingBodyBuffer
    let control: any StreamingTransferControl

    init(buffer: StreamingBodyBuffer, control: any StreamingTransferControl) {
        self.buffer = buffer
        self.control = control
    }

    deinit {
        if !buffer.hasEnded { control.cancelTransfer() }
    }

    func next() async throws -> [UInt8]? {
        try await buffer.next(control: control)
    }
}
