import Foundation
import Subprocess
import SyncTables
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `sync-server` process stopped with SIGTERM while a request is in flight (held there by a delay fault).
@Suite("sync-server graceful shutdown")
struct GracefulShutdownTests {
    @Test(
        "SIGTERM: /ready answers 503 at once, /health 200, the request in flight finishes, then the server exits 0",
        .timeLimit(.minutes(1)))
    func drainsTheRequestInFlight() async throws {
        let (status, ended) = try await ChildServers.with(
            count: 1, arguments: ["--in-memory", "--enable-test-controls"]
        ) { servers in
            // Given a ready server with a request held in flight for 10 seconds (long enough for the steps
            // below on a loaded machine)
            let server = servers[0]
            #expect(try await server.send(.get, "/ready", apiVersion: nil).status == 200)
            let slow = try await Self.requestInFlight(on: server, milliseconds: 10_000)

            // When the server gets SIGTERM
            server.send(signal: SIGTERM)

            // Then /ready turns 503 while /health stays 200, and the request in flight gets its answer
            let ready = try await Self.readyStatus(503, on: server)
            #expect(try ready.object().string("status") == "draining")
            #expect(try await server.send(.get, "/health", apiVersion: nil).status == 200)
            return try await slow.value.status
        }
        #expect(status == 201)
        #expect(ended == [.exited(0)])
    }

    @Test(
        "SIGTERM with a request that outlasts --drain-timeout: the request is cut off and the server exits 0",
        .timeLimit(.minutes(1)))
    func drainTimeoutCutsOff() async throws {
        let (outcome, ended) = try await ChildServers.with(
            count: 1, arguments: ["--in-memory", "--enable-test-controls", "--drain-timeout", "1"]
        ) { servers in
            // Given a request held in flight for a minute, far longer than the 1-second drain timeout
            let server = servers[0]
            let slow = try await Self.requestInFlight(on: server, milliseconds: 60_000)

            // When the server gets SIGTERM
            server.send(signal: SIGTERM)

            // Then the request ends without its 201 (the server stopped serving it)
            return await slow.result
        }
        if case .success(let response) = outcome { #expect(response.status != 201) }
        #expect(ended == [.exited(0)])
    }

    /// Starts `POST /tables/todo`, delayed on the server by `milliseconds`, and returns once the server has it.
    private static func requestInFlight(on server: ChildServer, milliseconds: Int) async throws
        -> Task<HTTPResult, any Error>
    {
        let fault = try await server.send(
            .post, "/__test/faults",
            json: #"{"method":"POST","path":"/tables/todo","action":"delay","milliseconds":\#(milliseconds)}"#)
        try #require(fault.status == 201, "\(fault.text)")
        let slow = Task { try await server.send(.post, "/tables/todo", json: #"{"id":"slow"}"#) }
        // The request log records a request before its fault delays it.
        for _ in 0..<200 {
            let log = try await server.send(.get, "/__test/requests").json()
            if case .array(let requests) = log, requests.contains(where: { Self.isSlowPost($0) }) { return slow }
            try await Task.sleep(for: .milliseconds(20))
        }
        slow.cancel()
        throw ChildServerError.timedOut("the delayed request never reached the server")
    }

    private static func isSlowPost(_ value: JSONValue) -> Bool {
        guard case .object(let request) = value else { return false }
        return request.string("method") == "POST" && request.string("path") == "/tables/todo"
    }

    /// Asks `/ready` until it answers `status` (the signal reaches the server a moment after it is sent).
    private static func readyStatus(_ status: Int, on server: ChildServer) async throws -> HTTPResult {
        for _ in 0..<250 {
            let ready = try await server.send(.get, "/ready", apiVersion: nil)
            if ready.status == status { return ready }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw ChildServerError.timedOut("/ready never answered \(status)")
    }
}
