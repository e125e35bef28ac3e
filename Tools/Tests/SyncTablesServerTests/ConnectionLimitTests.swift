import SyncTablesServer
import Testing

@Suite("Connection limit")
struct ConnectionLimitTests {
    @Test(.timeLimit(.minutes(5)))
    func beyondTheConnectionLimitANewRequestWaitsInsteadOfFailing() async throws {
        try await ServerHarness.with({
            $0.connectionLimits = ConnectionLimits(idleTimeout: .seconds(30), maxConnections: 4)
        }) { server in
            let held = try (0..<4).map { _ in try RawConnection(port: server.port) }
            defer { for connection in held { connection.close() } }
            // Let the server accept them all.
            try await Task.sleep(for: .milliseconds(300))

            let started = ContinuousClock.now
            let request = Task { () throws -> (Int, Duration) in
                let response = try await server.send(.get, "/tables/todo")
                return (response.status, ContinuousClock.now - started)
            }
            try await Task.sleep(for: .seconds(1))
            held[0].close()
            let (status, elapsed) = try await request.value

            #expect(status == 200)
            #expect(elapsed >= .milliseconds(900), "served before a connection was free: \(elapsed)")
            #expect(elapsed < .seconds(20))
        }
    }
}
