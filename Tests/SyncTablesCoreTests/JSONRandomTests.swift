import Testing

@_spi(SyncTablesTools) @testable import SyncTablesCore

/// Builds random JSON values, including awkward strings and numbers.
private struct RandomJSONBuilder {
    var random: SeededGenerator

    private static let fragments = [
        "a", "é", "😀", "\"", "\\", "\u{0}", "\u{1F}", "\n", "\u{7F}", "/", "\u{2028}", "名", "",
    ]

    mutating func value(depth: Int) -> JSONValue {
        let kinds = depth <= 0 ? 5 : 7
        switch Int.random(in: 0..<kinds, using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2:
            return .integer(Int64.random(in: .min ... .max, using: &random) >> Int64.random(in: 0...63, using: &random))
        case 3:
            let double = Double(bitPattern: random.next())
            return .double(double.isFinite ? double : 0.5)
        case 4: return .string(string())
        case 5: return .array((0..<Int.random(in: 0..<5, using: &random)).map { _ in value(depth: depth - 1) })
        default:
            var object = JSONObject()
            for _ in 0..<Int.random(in: 0..<5, using: &random) { object[string()] = value(depth: depth - 1) }
            return .object(object)
        }
    }

    private mutating func string() -> String {
        (0..<Int.random(in: 0..<6, using: &random)).compactMap { _ in Self.fragments.randomElement(using: &random) }
            .joined()
    }
}

@Suite("JSON random round trips and fuzzing")
struct JSONRandomTests {
    @Test func parsingSerializedValuesGivesBackTheSameValue() throws {
        var builder = RandomJSONBuilder(random: SeededGenerator(seed: 1))
        for _ in 0..<3000 {
            let value = builder.value(depth: 4)
            let bytes = value.jsonBytes
            #expect(try JSONValue(parsing: bytes) == value)
            #expect(try JSONValue(parsing: bytes).jsonBytes == bytes)
        }
    }

    @Test func mutatedJSONNeverCrashesTheParser() {
        var builder = RandomJSONBuilder(random: SeededGenerator(seed: 2))
        var random = SeededGenerator(seed: 3)
        let seeds = (0..<100).map { _ in builder.value(depth: 3).jsonBytes }
        var parsed = 0
        var rejected = 0
        for _ in 0..<50_000 {
            var bytes = seeds.randomElement(using: &random) ?? []
            for _ in 0..<Int.random(in: 1...3, using: &random) where !bytes.isEmpty {
                let position = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes.remove(at: position)
                case 1: bytes.insert(UInt8.random(in: 0...255, using: &random), at: position)
                default: bytes[position] = UInt8.random(in: 0...255, using: &random)
                }
            }
            do {
                _ = try JSONValue(parsing: bytes)
                parsed += 1
            } catch {
                rejected += 1
            }
        }
        #expect(parsed > 100)
        #expect(rejected > 100)
    }
}
