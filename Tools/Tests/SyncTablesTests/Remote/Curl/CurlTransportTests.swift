#if os(Linux)
    import Foundation
    import SlowLink
    @_spi(SyncTablesTools) @testable import SyncTables
    import SyncTablesServer
    import Testing

    /// Behaviours specific to ``CurlTransport``: its thread, its handle pool and its header handling.
    @Suite("CurlTransport")
    struct CurlTransportTests {
        @Test func theLoopThreadEndsAndReleasesItsStateWhenTheTransportGoesAway() async throws {
            weak var loop: AnyObject?
            try await ScriptedHTTPServer.with({ _ in .json(200, "[]") }) { server in
                var transport: CurlTransport? = try CurlTransport()
                loop = transport?.loopForTesting
                _ = try await transport?.send(TransportRequest(method: .get, url: server.baseURL))
                #expect(loop != nil)

                transport = nil

                let deadline = ContinuousClock.now + .seconds(2)
                while loop != nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
                #expect(loop == nil)
            }
        }

        @Test func aServerThatClosesEachConnectionGetsAFreshConnectionPerRequest() async throws {
            let transport = try CurlTransport()
            let reply = ScriptedReply.json(200, "[]", headers: [("Connection", "close")])
            try await ScriptedHTTPServer.with({ _ in reply }) { server in
                for _ in 0..<3 {
                    let response = try await transport.send(TransportRequest(method: .get, url: server.baseURL))
                    #expect(response.status == 200)
                }
                #expect(Set(server.requests.map(\.clientPort)).count == 3)
            }
        }

        // URLSession is left out: FoundationNetworking stops the process ("Transfer completed, but there's
        // no response") on this cut.
        @Test func aConnectionCutInsideTheResponseHeadersFailsWithConnectionLost() async throws {
            try await SyncHarness.with { harness in
                let proxy = try await SlowLinkProxy(
                    upstreamPort: try #require(harness.server.port), link: SlowLinkConfiguration(oneWayDelay: .zero))
                let transport = try CurlTransport()
                // 40 bytes: past the status line, in the middle of the header fields.
                proxy.dropResponse(toRequestContaining: "GET /tables/TodoItem", afterBytes: 40)

                let error = await #expect(throws: TransportError.self) {
                    try await transport.send(
                        TransportRequest(
                            method: .get, url: proxy.url.appendingPathComponent("tables/TodoItem"),
                            headers: ["ZUMO-API-VERSION": "2.0.0"]))
                }

                #expect(error?.kind == .connectionLost, "\(String(describing: error))")
                #expect(proxy.droppedConnections == 1)
                try await proxy.close()
            }
        }

        @Test func aHeaderValueWithALineBreakIsRejectedBeforeAnythingIsSent() async throws {
            let transport = try CurlTransport()
            try await ScriptedHTTPServer.with({ _ in .json(200, "[]") }) { server in
                let request = TransportRequest(
                    method: .get, url: server.baseURL, headers: ["X-Evil": "a\r\nX-Injected: b"])
                let error = await #expect(throws: TransportError.self) { try await transport.send(request) }
                #expect(error?.kind == .invalidRequest)
                #expect(server.requests.isEmpty)
            }
        }

        @Test func aNonHTTPURLIsRejectedAsAnInvalidRequest() async throws {
            let transport = try CurlTransport()
            let request = TransportRequest(method: .get, url: URL(fileURLWithPath: "/etc/passwd"))
            let error = await #expect(throws: TransportError.self) { try await transport.send(request) }
            #expect(error?.kind == .invalidRequest)
        }

        @Test func repeatedResponseHeaderFieldsAreAllKeptInOrder() async throws {
            let transport = try CurlTransport()
            let reply = ScriptedReply(status: 200, headers: [("X-Multi", "one"), ("X-Multi", "two")])
            try await ScriptedHTTPServer.with({ _ in reply }) { server in
                let response = try await transport.send(TransportRequest(method: .get, url: server.baseURL))
                #expect(response.headers.values(for: "x-multi") == ["one", "two"])
            }
        }

        @Test func anEmptyHeaderValueIsSentAsAnEmptyHeader() async throws {
            let transport = try CurlTransport()
            try await ScriptedHTTPServer.with({ _ in .json(200, "[]") }) { server in
                _ = try await transport.send(
                    TransportRequest(method: .get, url: server.baseURL, headers: ["X-Empty": ""]))
                let request = try #require(server.requests.first)
                #expect(request.headers.contains { $0.name.lowercased() == "x-empty" && $0.value.isEmpty })
                #expect(request.header("Expect") == nil)
            }
        }
    }
#endif
