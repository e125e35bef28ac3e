import Foundation
import SlowLink
import SyncTablesServer
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// The slow-link proxy the latency tests and benchmarks put between a client and a real `sync-server`.
@Suite("Slow-link proxy")
struct SlowLinkProxyTests {
    @Test func requestsThroughTheProxyReachTheServerAndTakeAtLeastTheRoundTrip() async throws {
        try await SyncHarness.with { harness in
            _ = try await harness.controls.seed(table: "TodoItem", items: [["id": "a", "text": "x"]])
            let proxy = try await SlowLinkProxy(
                upstreamPort: try #require(harness.server.port),
                link: SlowLinkConfiguration(roundTrip: .milliseconds(80)))
            let client = SyncClient(url: proxy.url)

            let started = ContinuousClock.now
            for _ in 0..<3 { #expect(try await client.lookup(table: "TodoItem", id: "a")["text"] == "x") }
            let elapsed = ContinuousClock.now - started

            // Each request and its answer cross the link once each way: never faster than the round trips.
            #expect(elapsed >= .milliseconds(240))
            try await proxy.close()
        }
    }

    @Test func aCappedLinkTakesAtLeastTheTransmissionTimeOfTheAnswer() async throws {
        try await SyncHarness.with(pageSize: 1000) { harness in
            let rows: [JSONObject] = (0..<500).map {
                ["id": .string("r\($0)"), "text": .string(Self.incompressibleText(count: 400, seed: UInt32($0)))]
            }
            _ = try await harness.controls.seed(table: "TodoItem", items: rows)
            // 1 Mbit/s: the page of about 225 KB takes well over a second to cross.
            let proxy = try await SlowLinkProxy(
                upstreamPort: try #require(harness.server.port),
                link: SlowLinkConfiguration(oneWayDelay: .zero, bitsPerSecond: 1_000_000))
            let client = SyncClient(url: proxy.url)

            let started = ContinuousClock.now
            let page = try await client.query(table: "TodoItem", queryString: "$top=1000")
            let elapsed = ContinuousClock.now - started

            #expect(page.items.count == 500)
            #expect(elapsed >= .seconds(1))
            try await proxy.close()
        }
    }

    @Test func aDropRuleCutsTheMatchingResponseMidwayAndOnlyThatOne() async throws {
        try await SyncHarness.with { harness in
            let text = Self.incompressibleText(count: 4_000)
            _ = try await harness.controls.seed(table: "TodoItem", items: [["id": "a", "text": .string(text)]])
            let proxy = try await SlowLinkProxy(
                upstreamPort: try #require(harness.server.port), link: SlowLinkConfiguration(oneWayDelay: .zero))
            let client = SyncClient(url: proxy.url)
            // Past the headers, in the middle of the body.
            proxy.dropResponse(toRequestContaining: "GET /tables/TodoItem/a", afterBytes: 2_000)

            await #expect(throws: TransportError.self) { try await client.lookup(table: "TodoItem", id: "a") }

            #expect(proxy.droppedConnections == 1)
            #expect(try await client.lookup(table: "TodoItem", id: "a")["text"] == .string(text))
            try await proxy.close()
        }
    }

    /// Text gzip cannot shrink much: the server compresses what the client accepts, and these tests need
    /// the bytes on the wire.
    private static func incompressibleText(count: Int, seed: UInt32 = 12_345) -> String {
        var state = seed
        return String(
            (0..<count).map { _ in
                state = state &* 1_103_515_245 &+ 12_345
                return Character(Unicode.Scalar(UInt8(48 + (state >> 16) % 75)))
            })
    }

    @Test func durationsAndRatesParseAsTheBenchmarksTakeThem() {
        #expect(SlowLinkConfiguration.duration(parsing: "50ms") == .milliseconds(50))
        #expect(SlowLinkConfiguration.duration(parsing: "0.2s") == .milliseconds(200))
        #expect(SlowLinkConfiguration.duration(parsing: "75") == .milliseconds(75))
        #expect(SlowLinkConfiguration.duration(parsing: "fast") == nil)
        #expect(SlowLinkConfiguration.bitsPerSecond(parsing: "20mbit") == 20_000_000)
        #expect(SlowLinkConfiguration.bitsPerSecond(parsing: "512kbit") == 512_000)
        #expect(SlowLinkConfiguration.bitsPerSecond(parsing: "0mbit") == nil)
    }
}
