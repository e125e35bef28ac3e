import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTablesCore

private struct BenchmarkItem: Codable {
    var id: String
    var text: String
    var complete: Bool
    var priority: Int
    var ratio: Double
    var owner: String
    var version: String?
    var updatedAt: Date?
}

/// Throughput checks for release builds: `SYNCTABLES_PERFORMANCE=1 swift test -c release --filter Performance`.
@Suite("Performance", .enabled(if: ProcessInfo.processInfo.environment["SYNCTABLES_PERFORMANCE"] != nil))
struct PerformanceTests {
    static let flatItem = #"""
        {"id":"7d8e0b4c-3a52-4f0e-9a61-1c2b3d4e5f60","text":"Buy milk and eggs at the corner shop","complete":false,\#
        "priority":3,"ratio":0.625,"owner":"user-123456","tags":"groceries,errands","version":"AAAAAAAAHzg=",\#
        "createdAt":"2024-05-01T10:00:00.000Z","updatedAt":"2024-05-01T10:00:00.123Z","deleted":false,"count":42}
        """#

    private func rate(iterations: Int, _ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        for _ in 0..<iterations { try body() }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Double(iterations) / seconds
    }

    @Test func parsesFlatItemsFast() throws {
        let bytes = Array(Self.flatItem.utf8)
        let perSecond = try rate(iterations: 300_000) { _ = try JSONValue(parsing: bytes) }
        print("parse \(bytes.count)-byte item: \(Int(perSecond))/s")
        #expect(perSecond > 300_000)
    }

    @Test func serializesFlatItemsFast() throws {
        let value = try JSONValue(parsing: Self.flatItem)
        let perSecond = rate(iterations: 300_000) { _ = value.jsonBytes }
        print("serialize item: \(Int(perSecond))/s")
        #expect(perSecond > 300_000)
    }

    @Test func encodesStructsFast() throws {
        let item = BenchmarkItem(
            id: "7d8e0b4c", text: "Buy milk", complete: false, priority: 3, ratio: 0.625, owner: "user-1",
            version: "AAAAAAAAHzg=", updatedAt: Date(timeIntervalSince1970: 1_714_557_600.123)
        )
        let encoder = JSONValueEncoder()
        let perSecond = try rate(iterations: 300_000) { _ = try encoder.encode(item) }
        print("encode 8-field struct: \(Int(perSecond))/s")
        #expect(perSecond > 300_000)
    }

    @Test func decodesStructsFast() throws {
        let item = BenchmarkItem(
            id: "7d8e0b4c", text: "Buy milk", complete: false, priority: 3, ratio: 0.625, owner: "user-1",
            version: "AAAAAAAAHzg=", updatedAt: Date(timeIntervalSince1970: 1_714_557_600.123)
        )
        let value = try JSONValueEncoder().encode(item)
        let decoder = JSONValueDecoder()
        let perSecond = try rate(iterations: 300_000) { _ = try decoder.decode(BenchmarkItem.self, from: value) }
        print("decode 8-field struct: \(Int(perSecond))/s")
        #expect(perSecond > 200_000)
    }

    @Test func parsesFiltersFast() throws {
        let text = "((text eq 'MATCH') and (updatedAt ge datetimeoffset'2000-01-01T00:00:00.000Z'))"
        let perSecond = try rate(iterations: 100_000) { _ = try FilterExpression(odataFilter: text) }
        print("parse filter: \(Int(perSecond))/s")
        #expect(perSecond > 50_000)
    }
}
