import Foundation
import Logging
import PostgresNIO
import Subprocess
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `sync-server` process stopped with SIGTERM while a request is in flight: held there by a PostgreSQL row
/// lock a test session holds (released on demand), or by a delay fault longer than the drain timeout.
@Suite("sync-server graceful shutdown")
struct GracefulShutdownTests {
    @Test(.enabled(if: TestBackend.postgresURL != nil), .timeLimit(.minutes(2)))
    func sigtermMakesReadyAnswer503FinishesTheRequestInFlightThenExits0() async throws {
        let database = try TestBackend.freshPostgresDatabase()
        let url = try #require(TestBackend.postgresURL)
        let arguments = [
            "--enable-test-controls", "--database", url, "--database-schema", database.schema, "--pool-size", "2",
        ]
        let (status, ended) = try await ChildServers.with(count: 1, arguments: arguments) { servers in
            let server = servers[0]
            try #require(try await server.send(.post, "/tables/todo", json: #"{"id":"x"}"#).status == 201)
            #expect(try await server.send(.get, "/ready", apiVersion: nil).status == 200)
            return try await TestBackend.withSession(database) { session in
                // Given a PATCH in flight, waiting for the row lock a database session holds
                let logger = Logger(label: "test")
                try await session.query("BEGIN", logger: logger)
                try await session.query(
                    PostgresQuery(unsafeSQL: "SELECT id FROM \"\(database.schema)\".todo WHERE id = 'x' FOR UPDATE"),
                    logger: logger)
                let held = Task { try await server.send(.patch, "/tables/todo/x", json: #"{"text":"late"}"#) }
                try await Self.waitUntilReceived("PATCH", "/tables/todo/x", by: server)

                // When the server gets SIGTERM
                server.send(signal: SIGTERM)

                // Then /ready turns 503 while /health stays 200, and the request in flight gets its answer
                let ready = try await Self.readyStatus(503, on: server)
                #expect(try ready.object().string("status") == "draining")
                #expect(try await server.send(.get, "/health", apiVersion: nil).status == 200)
                try await session.query("COMMIT", logger: logger)
                return try await held.value.status
            }
        }
        try await TestBackend.dropSchema(of: database)
        #expect(status == 200)
        #expect(ended == [.exited(0)])
    }

    @Test(.timeLimit(.minutes(5)))
    func aRequestOutlastingTheDrainTimeoutAfterSIGTERMIsCutOffAndTheServerExits0() async throws {
        let (outcome, ended) = try await ChildServers.with(
            count: 1, arguments: ["--in-memory", "--enable-test-controls", "--drain-timeout", "1"]
        ) { servers in
            // Given a request held in flight for a minute, far longer than the 1-second drain timeout
            let server = servers[0]
            let fault = try await server.send(
                .post, "/__test/faults",
                json: #"{"method":"POST","path":"/tables/todo","action":"delay","milliseconds":60000}"#)
            try #require(fault.status == 201, "\(fault.text)")
            let slow = Task { try await server.send(.post, "/tables/todo", json: #"{"id":"slow"}"#) }
            try await Self.waitUntilReceived("POST", "/tables/todo", by: server)

            // When the server gets SIGTERM
            server.send(signal: SIGTERM)

            // Then the request ends without its 201 (the server stopped serving it)
            return await slow.result
        }
        if case .success(let response) = outcome { #expect(response.status != 201) }
        #expect(ended == [.exited(0)])
    }

    /// Returns once the server's request log has the request (it is recorded before it runs).
    private static func waitUntilReceived(_ method: String, _ path: String, by server: ChildServer) async throws {
        for _ in 0..<500 {
            let log = try await server.send(.get, "/__test/requests").json()
            if case .array(let requests) = log,
                requests.contains(where: { request in
                    guard case .object(let request) = request else { return false }
                    return request.string("method") == method && request.string("path") == path
                })
            {
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw ChildServerError.timedOut("\(method) \(path) never reached the server")
    }

    /// Asks `/ready` until it answers `status` (the signal reaches the server a moment after it is sent).
    private static func readyStatus(_ status: Int, on server: ChildServer) async throws -> HTTPResult {
        for _ in 0..<500 {
            let ready = try await server.send(.get, "/ready", apiVersion: nil)
            if ready.status == status { return ready }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw ChildServerError.timedOut("/ready never answered \(status)")
    }
}
