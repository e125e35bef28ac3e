import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// gzip through the system's zlib: what the `gzip` tool writes decodes, what we write round-trips, and
/// hostile bodies are refused with the right error.
@Suite("gzip bodies")
struct GzipTests {
    /// `printf 'hello\n' | gzip -n`: the tool's own output.
    static let helloFromTheGzipTool: [UInt8] = [
        31, 139, 8, 0, 0, 0, 0, 0, 0, 3, 203, 72, 205, 201, 201, 231, 2, 0, 32, 48, 58, 54, 6, 0, 0, 0,
    ]

    @Test func whatTheGzipToolWritesDecodes() throws {
        #expect(try Gzip.decompress(Self.helloFromTheGzipTool, limit: 100) == Array("hello\n".utf8))
    }

    @Test(arguments: [0, 1, 100, 65_536, 1 << 20])
    func bodiesRoundTrip(size: Int) throws {
        var generator = SystemRandomNumberGenerator()
        // Half random bytes, half repeated text: both the incompressible and the usual case.
        let body = (0..<size).map { $0 % 2 == 0 ? UInt8.random(in: 0...255, using: &generator) : UInt8(ascii: "a") }
        let compressed = try #require(Gzip.compress(body))
        #expect(compressed.starts(with: [31, 139]))  // the gzip magic
        #expect(try Gzip.decompress(compressed, limit: size) == body)
    }

    @Test func aBombStopsAtTheLimitAndGarbageIsCorrupt() throws {
        let bomb = try #require(Gzip.compress(Array(repeating: UInt8(ascii: " "), count: 4 << 20)))
        #expect(bomb.count < 10_000)
        #expect(throws: Gzip.DecodingError.tooLarge(limit: 1 << 20)) { try Gzip.decompress(bomb, limit: 1 << 20) }
        #expect(throws: Gzip.DecodingError.corrupt) { try Gzip.decompress(Array("not gzip".utf8), limit: 100) }
        #expect(throws: Gzip.DecodingError.corrupt) { try Gzip.decompress([], limit: 100) }
        // One stream followed by more bytes is not one gzip body.
        #expect(throws: Gzip.DecodingError.corrupt) {
            try Gzip.decompress(Self.helloFromTheGzipTool + [1, 2, 3], limit: 100)
        }
    }

    @Test func aStreamCutShortDecodesToWhatItHolds() throws {
        let text = Array(String(repeating: "sync tables ", count: 10_000).utf8)
        let compressed = try #require(Gzip.compress(text))
        let decoded = try Gzip.decompress(Array(compressed.prefix(compressed.count / 2)), limit: text.count)
        #expect(!decoded.isEmpty && decoded.count < text.count)
        #expect(text.starts(with: decoded))
    }
}
