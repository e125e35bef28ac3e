import SyncTablesServer
import Testing

@Suite("Slow and silent clients")
struct SlowClientTests {
    /// Short head and body deadlines so the test runs in seconds (the defaults are 10 s and 30 s); a long idle
    /// deadline, so a normal client on a loaded machine is never cut off before it sends its request.
    private static func shortDeadlines(_ configuration: inout SyncServerConfiguration) {
        configuration.connectionLimits = ConnectionLimits(
            idleTimeout: .seconds(30), requestHeadTimeout: .seconds(1), requestBodyTimeout: .seconds(1),
            maxConnections: 1000)
    }

    @Test(.timeLimit(.minutes(2)))
    func clientsSendingHalfARequestAreCutOffWhileOthersKeepBeingServed() async throws {
        try await ServerHarness.with(Self.shortDeadlines) { server in
            let started = ContinuousClock.now
            var slow: [RawConnection] = []
            defer { for connection in slow { connection.close() } }
            for index in 0..<300 {
                let connection = try RawConnection(port: server.port)
                slow.append(connection)
                if index.isMultiple(of: 2) {
                    try await connection.send("GET /tables/todo HTTP/1.1\r\nHost: 127.0.0.1\r\nZUMO-API-VER")
                } else {
                    try await connection.send(
                        "POST /tables/todo HTTP/1.1\r\nHost: 127.0.0.1\r\nZUMO-API-VERSION: 2.0.0\r\n"
                            + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"id\":")
                }
            }

            for index in 0..<10 {
                let before = ContinuousClock.now
                // The client waits longer than the bound below, so a slow answer fails the bound, not the client.
                let inserted = try await server.send(
                    .post, "/tables/todo", json: #"{"id":"n\#(index)"}"#, timeout: .seconds(90))
                let read = try await server.send(.get, "/tables/todo/n\(index)", timeout: .seconds(90))
                #expect(inserted.status == 201 && read.status == 200)
                // Each takes milliseconds alone; the bound only says no request waits for the slow clients' deadlines
                // one after another (300 × 1 s), with room for a 2-core machine that is also compiling.
                #expect(ContinuousClock.now - before < .seconds(60), "request \(index) waited behind the slow clients")
            }

            for (index, connection) in slow.enumerated() {
                let outcome = try await connection.waitForClose(timeout: .seconds(30))
                guard case .closed(let received) = outcome else {
                    Issue.record("slow connection \(index) is still open")
                    continue
                }
                if index.isMultiple(of: 2) {
                    #expect(received.hasPrefix("HTTP/1.1 408"), "half a head: \(received)")
                } else {
                    #expect(received.isEmpty, "half a body: \(received)")
                }
            }
            #expect(ContinuousClock.now - started < .seconds(90))
            #expect(try await server.send(.get, "/tables/todo").ids().count == 10)
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func aConnectionThatNeverSendsARequestIsClosedAfterTheIdleTimeout() async throws {
        try await ServerHarness.with({ $0.connectionLimits.idleTimeout = .seconds(2) }) { server in
            let connection = try RawConnection(port: server.port)
            defer { connection.close() }
            let started = ContinuousClock.now
            #expect(try await connection.waitForClose(timeout: .seconds(10)) == .closed(received: ""))
            #expect(ContinuousClock.now - started > .milliseconds(1500))
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func aRequestWhoseBodyTricklesInForLongerThanTheBodyTimeoutIsClosed() async throws {
        try await ServerHarness.with(Self.shortDeadlines) { server in
            let connection = try RawConnection(port: server.port)
            defer { connection.close() }
            try await connection.send(
                "POST /tables/todo HTTP/1.1\r\nHost: 127.0.0.1\r\nZUMO-API-VERSION: 2.0.0\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 40\r\n\r\n")
            let started = ContinuousClock.now
            // One byte every 300 ms keeps the connection busy, but not beyond the 1 s body deadline.
            for byte in #"{"id":"trickle","text":"x"}"#.map(String.init) {
                guard case .open = try await connection.waitForClose(timeout: .milliseconds(300)) else { break }
                try? await connection.send(byte)
            }
            #expect(try await connection.waitForClose(timeout: .seconds(5)) == .closed(received: ""))
            #expect(ContinuousClock.now - started < .seconds(30))
            #expect(try await server.send(.get, "/tables/todo/trickle").status == 404)
        }
    }
}
