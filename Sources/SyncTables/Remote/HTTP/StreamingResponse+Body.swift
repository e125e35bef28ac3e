extension StreamingResponse {
    /// The body of a ``StreamingResponse``: its chunks in order, as the network delivers them (none is empty).
    ///
    /// Reading ends normally when the server finished the body, throws ``TransportError`` when the connection
    /// broke first, and throws `CancellationError` when the task reading it is cancelled, which cancels the
    /// transfer and closes its connection. Dropping the body (the response and every iterator made from it)
    /// before it ended cancels the transfer too.
    ///
    /// A transport of your own hands its chunks over as a stream:
    ///
    /// ```swift
    /// let (chunks, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
    /// let response = StreamingResponse(status: 200, body: StreamingResponse.Body(chunks))
    /// continuation.yield(Array("data: hello\n\n".utf8))
    /// continuation.finish()
    /// ```
    public struct Body: AsyncSequence, Sendable {
        /// A chunk of the body.
        public typealias Element = [UInt8]

        private enum Source: Sendable {
            case transfer(StreamingBodyReader)
            case stream(AsyncThrowingStream<[UInt8], any Error>)
        }

        private let source: Source

        /// A body whose chunks come from `chunks` (empty chunks are skipped).
        public init(_ chunks: AsyncThrowingStream<[UInt8], any Error>) {
            source = .stream(chunks)
        }

        /// A body read from a transport's bounded buffer.
        init(reader: StreamingBodyReader) {
            source = .transfer(reader)
        }

        /// An iterator over the chunks.
        public func makeAsyncIterator() -> Iterator {
            switch source {
            case .transfer(let reader): Iterator(source: .transfer(reader))
            case .stream(let stream): Iterator(source: .stream(stream.makeAsyncIterator()))
            }
        }

        /// Reads the body chunk by chunk.
        public struct Iterator: AsyncIteratorProtocol {
            fileprivate enum Source {
                case transfer(StreamingBodyReader)
                case stream(AsyncThrowingStream<[UInt8], any Error>.Iterator)
            }

            fileprivate var source: Source

            /// The next chunk, or `nil` at the end of the body.
            ///
            /// - Throws: ``TransportError`` when the connection broke, `CancellationError` when the task is cancelled.
            public mutating func next() async throws -> [UInt8]? {
                switch source {
                case .transfer(let reader):
                    return try await reader.next()
                case .stream(var chunks):
                    defer { source = .stream(chunks) }
                    while let chunk = try await chunks.next() {
                        if !chunk.isEmpty { return chunk }
                    }
                    return nil
                }
            }
        }
    }
}
