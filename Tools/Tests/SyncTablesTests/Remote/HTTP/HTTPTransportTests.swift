import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// The behaviours every ``HTTPTransport`` shares, run against a real server on 127.0.0.1 for each transport.
@Suite("HTTP transports")
struct HTTPTransportTests {
    @Test(arguments: TransportKind.allCases)
    func sendsTheMethodHeadersAndBodyAndReturnsStatusHeadersAndBody(kind: TransportKind) async throws {
        let transport = try kind.make()
        try await ScriptedHTTPServer.with({ request in
            .json(201, #"{"echo":"\#(request.bodyText)"}"#, headers: [("X-Reply", "yes")])
        }) { server in
            // Given a PATCH with a body and custom headers
            var headers = TransportHeaders()
            headers.add(name: "X-Custom", value: "one")
            headers.add(name: "Content-Type", value: "application/json")
            let request = TransportRequest(
                method: .patch,
                url: server.baseURL.appendingPathComponent("tables/todo/a"),
                headers: headers,
                body: Array("hello".utf8)
            )

            // When it is sent
            let response = try await transport.send(request)

            // Then the server saw exactly that and the reply comes back whole
            let received = try #require(server.requests.first)
            #expect(received.method == "PATCH")
            #expect(received.rawPath == "/tables/todo/a")
            #expect(received.header("x-custom") == "one")
            #expect(received.header("Content-Type") == "application/json")
            #expect(received.bodyText == "hello")
            #expect(response.status == 201)
            #expect(response.headers["x-reply"] == "yes")
            #expect(String(decoding: response.body, as: UTF8.self) == #"{"echo":"hello"}"#)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func sendsGETAndDELETEWithoutABodyAndPOSTWithAnEmptyBody(kind: TransportKind) async throws {
        let transport = try kind.make()
        try await ScriptedHTTPServer.with({ _ in ScriptedReply(status: 204) }) { server in
            let url = server.baseURL.appendingPathComponent("tables/todo/a")
            for method in [TransportMethod.get, .delete] {
                let response = try await transport.send(TransportRequest(method: method, url: url))
                #expect(response.status == 204)
            }
            _ = try await transport.send(TransportRequest(method: .post, url: url, body: []))

            let received = server.requests
            #expect(received.map(\.method) == ["GET", "DELETE", "POST"])
            #expect(received.allSatisfy { $0.body.isEmpty })
            #expect(received[2].header("Content-Length") == "0")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func returnsErrorStatusesAsResponsesNotErrors(kind: TransportKind) async throws {
        let transport = try kind.make()
        try await ScriptedHTTPServer.with({ _ in .json(500, #"{"error":"boom"}"#) }) { server in
            let response = try await transport.send(TransportRequest(method: .get, url: server.baseURL))
            #expect(response.status == 500)
            #expect(String(decoding: response.body, as: UTF8.self) == #"{"error":"boom"}"#)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func carriesALargeBodyBothWays(kind: TransportKind) async throws {
        let transport = try kind.make()
        let payload = String(repeating: "0123456789", count: 200_000)
        try await ScriptedHTTPServer.with({ request in ScriptedReply(status: 200, body: request.bodyText) }) { server in
            let response = try await transport.send(
                TransportRequest(method: .post, url: server.baseURL, body: Array(payload.utf8))
            )
            #expect(response.body.count == payload.utf8.count)
            #expect(String(decoding: response.body, as: UTF8.self) == payload)
        }
    }

    #if canImport(Glibc)
        @Test(arguments: TransportKind.allCases)
        func aClosedPortFailsWithConnectionFailed(kind: TransportKind) async throws {
            let transport = try kind.make()
            let closed = try RefusingPort()
            let error = await #expect(throws: TransportError.self) {
                try await transport.send(TransportRequest(method: .get, url: closed.baseURL))
            }
            #expect(error?.kind == .connectionFailed)
        }

        @Test(arguments: TransportKind.allCases)
        func aConnectionDroppedBeforeAnyResponseFailsWithConnectionLost(kind: TransportKind) async throws {
            let transport = try kind.make()
            let server = try DroppingServer()
            let error = await #expect(throws: TransportError.self) {
                try await transport.send(TransportRequest(method: .get, url: server.baseURL))
            }
            #expect(error?.kind == .connectionLost, "\(String(describing: error))")
        }

        @Test(arguments: TransportKind.allCases)
        func aConnectionDroppedInTheMiddleOfTheBodyFailsWithConnectionLost(kind: TransportKind) async throws {
            let transport = try kind.make()
            let server = try DroppingServer(partialReply: "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n[{\"id\":")
            let error = await #expect(throws: TransportError.self) {
                try await transport.send(TransportRequest(method: .get, url: server.baseURL))
            }
            #expect(error?.kind == .connectionLost, "\(String(describing: error))")
        }
    #endif

    @Test(arguments: TransportKind.allCases)
    func aResponseSlowerThanTheTimeoutFailsWithTimedOut(kind: TransportKind) async throws {
        let transport = try kind.make()
        // The reply would come after a minute; the bound is half that, so a busy machine (the whole suite runs in
        // parallel on two cores) cannot fail the test, while a timeout that does not work still does.
        try await ScriptedHTTPServer.with({ _ in ScriptedReply(status: 200, delay: .seconds(60)) }) { server in
            let started = ContinuousClock.now
            let error = await #expect(throws: TransportError.self) {
                try await transport.send(
                    TransportRequest(method: .get, url: server.baseURL, timeout: .milliseconds(300)))
            }
            #expect(error?.kind == .timedOut)
            #expect(ContinuousClock.now - started < .seconds(30))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func cancellingTheTaskDuringASlowResponseThrowsCancellationErrorPromptly(kind: TransportKind) async throws {
        let transport = try kind.make()
        try await ScriptedHTTPServer.with({ _ in ScriptedReply(status: 200, delay: .seconds(60)) }) { server in
            // Given a request in flight that the server answers only after a minute
            let request = TransportRequest(method: .get, url: server.baseURL)
            let task = Task { try await transport.send(request) }
            try await waitUntil { server.requests.count == 1 }

            // When its task is cancelled
            let cancelled = ContinuousClock.now
            task.cancel()

            // Then it ends with CancellationError long before the server's answer would have come (half a
            // minute leaves room for a busy machine and none for waiting on the answer)
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(ContinuousClock.now - cancelled < .seconds(30))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aTaskCancelledBeforeSendingThrowsCancellationErrorAndSendsNothing(kind: TransportKind) async throws {
        let transport = try kind.make()
        try await ScriptedHTTPServer.with({ _ in ScriptedReply(status: 200) }) { server in
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await transport.send(TransportRequest(method: .get, url: server.baseURL))
            }
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(server.requests.isEmpty)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func manySequentialRequestsReuseOneKeptAliveConnection(kind: TransportKind) async throws {
        let transport = try kind.make()
        try await ScriptedHTTPServer.with({ _ in .json(200, "[]") }) { server in
            for _ in 0..<20 {
                _ = try await transport.send(TransportRequest(method: .get, url: server.baseURL))
            }
            #expect(server.requests.count == 20)
            #expect(Set(server.requests.map(\.clientPort)).count == 1)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func serves1000SequentialRequests(kind: TransportKind) async throws {
        let transport = try kind.make()
        try await ScriptedHTTPServer.with({ request in ScriptedReply(status: 200, body: request.rawPath) }) { server in
            for index in 0..<1_000 {
                let response = try await transport.send(
                    TransportRequest(method: .get, url: server.baseURL.appendingPathComponent("n\(index)"))
                )
                #expect(String(decoding: response.body, as: UTF8.self) == "/n\(index)")
            }
            #expect(server.requests.count == 1_000)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func serves16TasksSendingAtOnce(kind: TransportKind) async throws {
        let transport = try kind.make()
        try await ScriptedHTTPServer.with({ request in
            ScriptedReply(status: 200, body: request.rawPath, delay: .milliseconds(5))
        }) { server in
            let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
                for task in 0..<16 {
                    group.addTask {
                        var mismatches = 0
                        for index in 0..<20 {
                            let path = "t\(task)-\(index)"
                            let response = try await transport.send(
                                TransportRequest(method: .get, url: server.baseURL.appendingPathComponent(path))
                            )
                            if String(decoding: response.body, as: UTF8.self) != "/\(path)" { mismatches += 1 }
                        }
                        return mismatches
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(mismatches == 0)
            #expect(server.requests.count == 16 * 20)
        }
    }
}

/// Polls a condition every few milliseconds, failing after thirty seconds (generous: a loaded CI machine
/// can take many seconds to schedule a request, and a condition that holds returns at once).
func waitUntil(_ condition: @Sendable () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(30)
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("The condition did not become true within 30 s.")
            return
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}
