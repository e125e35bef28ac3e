import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// gzip on the wire: responses compressed for clients that accept it (above the size threshold only),
/// request bodies accepted compressed and never decoded past the body limit.
@Suite("Compression")
struct CompressionTests {
    /// Rows enough for a page of several kilobytes.
    private static func seedPage(_ harness: ServerHarness) async throws {
        let rows: [JSONObject] = (0..<40).map {
            ["id": .string("item-\($0)"), "text": .string("the text of item \($0), repeated to fill the page")]
        }
        _ = try await harness.controls.seed(table: "todo", items: rows)
    }

    @Test func aPageAboveTheThresholdIsGzippedForAClientThatAcceptsItAndDecodesToTheSamePage() async throws {
        try await ServerHarness.with { harness in
            try await Self.seedPage(harness)

            let plain = try await harness.send(.get, "/tables/todo")
            let gzipped = try await harness.send(.get, "/tables/todo", headers: ["Accept-Encoding": "gzip, deflate"])

            #expect(plain.status == 200 && gzipped.status == 200)
            #expect(plain.header("Content-Encoding") == nil)
            #expect(gzipped.header("Content-Encoding") == "gzip")
            #expect(plain.header("Vary") == "Accept-Encoding")
            #expect(gzipped.header("Vary") == "Accept-Encoding")
            #expect(gzipped.header("Content-Length") == String(gzipped.body.count))
            #expect(gzipped.body.count * 3 < plain.body.count)
            #expect(try Gzip.decompress(gzipped.body, limit: 1 << 20) == plain.body)
        }
    }

    @Test func aResponseBelowTheThresholdGoesAsItIsWithoutVary() async throws {
        try await ServerHarness.with { harness in
            try await Self.seedPage(harness)

            let item = try await harness.send(.get, "/tables/todo/item-1", headers: ["Accept-Encoding": "gzip"])

            #expect(item.status == 200)
            #expect(item.body.count < 1024)
            #expect(item.header("Content-Encoding") == nil)
            #expect(item.header("Vary") == nil)
            #expect(try item.object().string("id") == "item-1")
        }
    }

    @Test func theThresholdIsConfigurableAndCompressionCanBeTurnedOff() async throws {
        try await ServerHarness.with({ $0.responseCompression = ResponseCompression(minimumSize: 64) }) { harness in
            try await Self.seedPage(harness)
            let item = try await harness.send(.get, "/tables/todo/item-1", headers: ["Accept-Encoding": "gzip"])
            #expect(item.header("Content-Encoding") == "gzip")
        }
        try await ServerHarness.with({ $0.responseCompression = .off }) { harness in
            try await Self.seedPage(harness)
            let page = try await harness.send(.get, "/tables/todo", headers: ["Accept-Encoding": "gzip"])
            #expect(page.header("Content-Encoding") == nil)
            #expect(page.header("Vary") == nil)
        }
    }

    @Test func acceptEncodingIsReadWithItsWeights() {
        #expect(AcceptEncoding.allowsGzip(["gzip"]))
        #expect(AcceptEncoding.allowsGzip(["deflate, GZIP;q=0.5"]))
        #expect(AcceptEncoding.allowsGzip(["br", "x-gzip"]))
        #expect(AcceptEncoding.allowsGzip(["*"]))
        #expect(!AcceptEncoding.allowsGzip([]))
        #expect(!AcceptEncoding.allowsGzip(["identity"]))
        #expect(!AcceptEncoding.allowsGzip(["gzip;q=0"]))
        #expect(!AcceptEncoding.allowsGzip(["*, gzip; q=0"]))
        #expect(!AcceptEncoding.allowsGzip(["*;q=0.0"]))
    }

    @Test func theCapabilitiesDocumentOffersGzippedRequestBodies() async throws {
        try await ServerHarness.with { harness in
            let document = try await harness.send(.get, "/sync/capabilities").object()
            #expect(document["requestEncodings"] == .array([.string("gzip")]))
        }
    }

    @Test func aGzippedBatchIsAppliedAsThePlainOneWouldBe() async throws {
        try await ServerHarness.with { harness in
            let operations = (0..<5).map { index in
                #"{"method":"POST","table":"todo","body":{"id":"b\#(index)","text":"batched item \#(index)"}}"#
            }
            let body = Array(#"{"operations":[\#(operations.joined(separator: ","))]}"#.utf8)
            let compressed = try #require(Gzip.compress(body))

            let response = try await harness.send(
                .post, "/sync/batch", body: compressed, headers: ["Content-Encoding": "gzip"])

            #expect(response.status == 200, "\(response.text)")
            guard case .array(let results)? = try response.object()["results"] else {
                Issue.record("no results: \(response.text)")
                return
            }
            #expect(results.count == 5)
            #expect(results.allSatisfy { $0.objectValue?["status"] == .integer(201) })
            let stored = try await harness.send(.get, "/tables/todo?$top=100")
            #expect(try stored.ids().sorted() == ["b0", "b1", "b2", "b3", "b4"])
        }
    }

    @Test func aGzipBombIsRefusedWith413AndTheServerGoesOnServing() async throws {
        try await ServerHarness.with({ $0.maxBodySize = 64 * 1024 }) { harness in
            // 16 MiB of one character: about 16 KiB gzipped, far below the limit on the wire.
            let bomb = try #require(Gzip.compress(Array(repeating: UInt8(ascii: " "), count: 16 << 20)))
            #expect(bomb.count < 64 * 1024)

            let response = try await harness.send(
                .post, "/sync/batch", body: bomb, headers: ["Content-Encoding": "gzip"])

            #expect(response.status == 413)
            #expect(try response.errorMessage()?.contains("65536 bytes") == true)
            #expect(try await harness.send(.get, "/tables/todo").status == 200)
        }
    }

    @Test func aBodyThatIsNotGzipOrInAnotherEncodingIsRefused() async throws {
        try await ServerHarness.with { harness in
            let notGzip = try await harness.send(
                .post, "/tables/todo", json: #"{"id":"a"}"#, headers: ["Content-Encoding": "gzip"])
            let brotli = try await harness.send(
                .post, "/tables/todo", json: #"{"id":"a"}"#, headers: ["Content-Encoding": "br"])

            #expect(notGzip.status == 400)
            #expect(brotli.status == 415)
            #expect(try await harness.send(.get, "/tables/todo/a").status == 404)
        }
    }
}
