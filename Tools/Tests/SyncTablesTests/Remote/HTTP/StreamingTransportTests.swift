import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// What every ``StreamingHTTPTransport`` promises, against a real Hummingbird server on 127.0.0.1 whose routes
/// write their bodies piece by piece.
@Suite("Streaming HTTP transports")
struct StreamingTransportTests {
    @Test(arguments: TransportKind.allCases)
    func theHeadAndEachChunkArriveBeforeTheServerWritesTheNextChunk(kind: TransportKind) async throws {
        let transport = try kind.makeStreaming()
        let chunksRead = TestCounter()
        let serverWaitedInVain = TestFlag()
        // Given a server that writes each chunk only once the client has read the one before
        try await StreamingHTTPServer.with({ _, stop in
            .eventStream { writer in
                for index in 0..<3 {
                    try await writer.write("chunk \(index)\n")
                    if await !stop.wait(until: { chunksRead.value > index }) { serverWaitedInVain.set() }
                }
            }
        }) { server in
            // When the client streams the response
            let response = try await transport.stream(TransportRequest(method: .get, url: server.baseURL))

            // Then the head came while the body was still being written, and each chunk on its own
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"] == "text/event-stream")
            var text = ""
            for try await chunk in response.body {
                text += String(decoding: chunk, as: UTF8.self)
                if text.hasSuffix("\n") { chunksRead.increment() }
            }
            #expect(text == "chunk 0\nchunk 1\nchunk 2\n")
            #expect(!serverWaitedInVain.isSet, "a chunk did not reach the reader before the server wrote the next")
        }
    }

    #if canImport(Glibc)
        @Test(arguments: TransportKind.allCases)
        func theRequestTimeoutBoundsTheHeadButNotTheBody(kind: TransportKind) async throws {
            let transport = try kind.makeStreaming()
            // Given a server that pauses for three times the request's time limit in the middle of the body (a
            // server on a thread of its own: its head comes at once however busy the machine)
            let server = try PacedServer(steps: [
                ("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n", .zero),
                ("7\r\nbefore\n\r\n", .milliseconds(1_500)),
                ("6\r\nafter\n\r\n0\r\n\r\n", .zero),
            ])

            // When the client streams it with a limit of half a second
            let request = TransportRequest(method: .get, url: server.baseURL, timeout: .milliseconds(500))
            let response = try await transport.stream(request)

            // Then the whole body arrives
            let whole = try await response.collected(upTo: 1024)
            #expect(String(decoding: whole.body, as: UTF8.self) == "before\nafter\n")
        }
    #endif

    @Test(arguments: TransportKind.allCases)
    func aHeadSlowerThanTheTimeoutFailsWithTimedOut(kind: TransportKind) async throws {
        let transport = try kind.makeStreaming()
        // Given a server that answers only after a minute
        try await StreamingHTTPServer.with({ _, stop in
            await stop.sleep(for: .seconds(60))
            return .eventStream { _ in }
        }) { server in
            // When the client streams with a limit of 300 ms
            let started = ContinuousClock.now
            let error = await #expect(throws: TransportError.self) {
                try await transport.stream(
                    TransportRequest(method: .get, url: server.baseURL, timeout: .milliseconds(300)))
            }

            // Then it times out long before the answer (half a minute leaves room for a busy machine)
            #expect(error?.kind == .timedOut)
            #expect(ContinuousClock.now - started < .seconds(30))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func cancellingTheReadingTaskClosesTheConnectionPromptly(kind: TransportKind) async throws {
        let transport = try kind.makeStreaming()
        try await StreamingHTTPServer.with(Self.endlessHeartbeats) { server in
            // Given a task reading an endless stream
            let response = try await transport.stream(TransportRequest(method: .get, url: server.baseURL))
            let reader = Task {
                for try await _ in response.body {}
            }
            try await waitUntil { server.probe.bytesWritten > 100 }

            // When the task is cancelled
            let cancelled = ContinuousClock.now
            reader.cancel()

            // Then reading ends with CancellationError and the server sees its connection close
            await #expect(throws: CancellationError.self) { try await reader.value }
            try await waitUntil { server.probe.closedStreams == 1 }
            // (Half a minute leaves room for a busy machine; without cancelling, the server writes for a minute.)
            #expect(ContinuousClock.now - cancelled < .seconds(30))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func leavingTheReadingLoopClosesTheConnection(kind: TransportKind) async throws {
        let transport = try kind.makeStreaming()
        try await StreamingHTTPServer.with(Self.endlessHeartbeats) { server in
            // Given a reader that leaves the loop after the first chunk and drops the response
            func readFirstChunk() async throws -> [UInt8]? {
                let response = try await transport.stream(TransportRequest(method: .get, url: server.baseURL))
                for try await chunk in response.body { return chunk }
                return nil
            }
            let first = try await readFirstChunk()

            // Then the server sees its connection close
            #expect(first?.isEmpty == false)
            try await waitUntil { server.probe.closedStreams == 1 }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aConnectionDroppedInTheMiddleOfTheBodyEndsItWithConnectionLost(kind: TransportKind) async throws {
        let transport = try kind.makeStreaming()
        // Given a server that drops the connection after part of the body
        try await StreamingHTTPServer.with({ _, stop in
            .eventStream { writer in
                try await writer.write("event: change\n")
                await stop.sleep(for: .milliseconds(100))
                try await writer.dropConnection()
            }
        }) { server in
            let response = try await transport.stream(TransportRequest(method: .get, url: server.baseURL))

            // When the client reads the body, then it gets the part and then a TransportError
            var received: [UInt8] = []
            let error = await #expect(throws: TransportError.self) {
                for try await chunk in response.body { received += chunk }
            }
            #expect(error?.kind == .connectionLost, "\(String(describing: error))")
            #expect(String(decoding: received, as: UTF8.self) == "event: change\n")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aReaderThatFallsBehindStallsTheServerInsteadOfFillingMemory(kind: TransportKind) async throws {
        let transport = try kind.makeStreaming()
        try await StreamingHTTPServer.with(Self.endlessFirehose) { server in
            // Given a response nobody reads while the server writes as fast as it can
            let response = try await transport.stream(TransportRequest(method: .get, url: server.baseURL))

            // Then the server's writes stall after a few mebibytes (the client's buffer, the sockets' buffers):
            // what the client holds stays bounded while the server could write hundreds of mebibytes
            let stalledAt = try await Self.bytesWhenTheServerStalls(server.probe)
            #expect(stalledAt < 64 << 20, "the server wrote \(stalledAt) bytes to a reader that read nothing")

            if kind.pausesSlowReaders {
                // And when the reader reads again, the transfer resumes where it paused
                var read = 0
                var chunks = response.body.makeAsyncIterator()
                while read < stalledAt + (8 << 20), let chunk = try await chunks.next() { read += chunk.count }
                #expect(read >= stalledAt + (8 << 20))
                #expect(server.probe.bytesWritten > stalledAt)
            } else {
                // And where the transport cannot pause (URLSession on Linux), the stream failed instead
                await #expect(throws: TransportError.self) {
                    for try await _ in response.body {}
                }
            }
        }
    }

    @Test func aBodyMadeFromAStreamHandsOutItsChunksWithoutEmptyOnes() async throws {
        let (chunks, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        continuation.yield([1, 2])
        continuation.yield([])
        continuation.yield([3])
        continuation.finish()

        var received: [[UInt8]] = []
        for try await chunk in StreamingResponse.Body(chunks) { received.append(chunk) }

        #expect(received == [[1, 2], [3]])
    }

    // MARK: Routes and helpers

    /// A comment line every 20 ms until the connection or the test ends (at most a minute).
    static let endlessHeartbeats: @Sendable (ReceivedRequest, StopFlag) async throws -> StreamedReply = { _, stop in
        .eventStream { writer in
            let deadline = ContinuousClock.now + .seconds(60)
            while !stop.isSet, ContinuousClock.now < deadline {
                try await writer.write(": heartbeat\n")
                await stop.sleep(for: .milliseconds(20))
            }
        }
    }

    /// 64 KiB blocks as fast as the connection takes them, until it or the test ends (at most 256 MiB or a minute).
    static let endlessFirehose: @Sendable (ReceivedRequest, StopFlag) async throws -> StreamedReply = { _, stop in
        .eventStream { writer in
            let block = [UInt8](repeating: UInt8(ascii: "x"), count: 64 << 10)
            let deadline = ContinuousClock.now + .seconds(60)
            var written = 0
            while !stop.isSet, ContinuousClock.now < deadline, written < 256 << 20 {
                try await writer.write(block)
                written += block.count
            }
        }
    }

    /// The server's byte count once it stopped growing for half a second (checked for up to 30 s).
    static func bytesWhenTheServerStalls(_ probe: StreamProbe) async throws -> Int {
        try await waitUntil { probe.bytesWritten > 0 }
        let deadline = ContinuousClock.now + .seconds(30)
        var last = probe.bytesWritten
        while ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(500))
            let now = probe.bytesWritten
            if now == last { return now }
            last = now
        }
        Issue.record("The server never stopped writing: \(last) bytes.")
        return last
    }
}
