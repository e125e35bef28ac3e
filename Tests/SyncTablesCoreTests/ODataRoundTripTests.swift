import Testing

@_spi(SyncTablesTools) @testable import SyncTablesCore

/// Builds random filter trees that OData can express.
private struct RandomFilterBuilder {
    var random: SeededGenerator

    private static let names = ["id", "text", "complete", "updatedAt", "_x", "A1", "datetime", "length", "Null"]
    private static let characters: [String] = ["a", "Z", " ", "'", "''", "\"", "é", "😀", "\\", "%", "(", ")", ",", "e"]

    /// A filter: Boolean where OData requires one (the top, and the operands of `and`, `or` and `not`).
    mutating func filter(depth: Int) -> FilterExpression {
        if depth <= 0 || Int.random(in: 0..<4, using: &random) == 0 {
            return Bool.random(using: &random)
                ? .property(Self.names.randomElement(using: &random) ?? "id")
                : .value(.bool(Bool.random(using: &random)))
        }
        switch Int.random(in: 0..<5, using: &random) {
        case 0: return .not(filter(depth: depth - 1))
        case 1: return .and(filter(depth: depth - 1), filter(depth: depth - 1))
        case 2: return .or(filter(depth: depth - 1), filter(depth: depth - 1))
        case 3:
            let function =
                [FilterFunction.substringOf, .startsWith, .endsWith].randomElement(using: &random) ?? .endsWith
            return .function(function, [expression(depth: depth - 1), expression(depth: depth - 1)])
        default:
            let op = ComparisonOperator.allCases.randomElement(using: &random) ?? .equal
            return .comparison(op, expression(depth: depth - 1), expression(depth: depth - 1))
        }
    }

    /// Any expression; `not`, `and` and `or` get Boolean operands.
    mutating func expression(depth: Int) -> FilterExpression {
        if depth <= 0 || Int.random(in: 0..<4, using: &random) == 0 { return leaf() }
        switch Int.random(in: 0..<8, using: &random) {
        case 0: return .not(filter(depth: depth - 1))
        case 1: return .and(filter(depth: depth - 1), filter(depth: depth - 1))
        case 2: return .or(filter(depth: depth - 1), filter(depth: depth - 1))
        case 3, 4:
            let op = ComparisonOperator.allCases.randomElement(using: &random) ?? .equal
            return .comparison(op, expression(depth: depth - 1), expression(depth: depth - 1))
        case 5:
            let op = ArithmeticOperator.allCases.randomElement(using: &random) ?? .add
            return .arithmetic(op, expression(depth: depth - 1), expression(depth: depth - 1))
        case 6: return .negate(expression(depth: depth - 1))
        default:
            let function = FilterFunction.allCases.randomElement(using: &random) ?? .length
            let count: Int
            switch function {
            case .substringOf, .startsWith, .endsWith, .indexOf, .concat: count = 2
            case .replace: count = 3
            case .substring: count = Int.random(in: 2...3, using: &random)
            default: count = 1
            }
            return .function(function, (0..<count).map { _ in expression(depth: depth - 1) })
        }
    }

    private mutating func leaf() -> FilterExpression {
        switch Int.random(in: 0..<8, using: &random) {
        case 0: return .property(Self.names.randomElement(using: &random) ?? "id")
        case 1: return .value(.null)
        case 2: return .value(.bool(Bool.random(using: &random)))
        case 3:
            let integers: [Int64] = [0, 1, -1, .max, .min, Int64.random(in: .min ... .max, using: &random)]
            return .value(.integer(integers.randomElement(using: &random) ?? 0))
        case 4: return .value(.double(randomDouble()))
        case 5:
            let length = Int.random(in: 0..<8, using: &random)
            let text = (0..<length).compactMap { _ in Self.characters.randomElement(using: &random) }.joined()
            return .value(.string(text))
        case 6:
            let ticks = Int64.random(in: -621_355_968_000_000_000...2_534_023_007_999_999_999, using: &random)
            return .timestamp(Timestamp(ticks: ticks))
        default:
            return .property(Self.names.randomElement(using: &random) ?? "id")
        }
    }

    private mutating func randomDouble() -> Double {
        while true {
            let candidates: [Double] = [
                0.5, -0.0, 1e20, 2.5e-7, Double(bitPattern: random.next()),
                Double(Int.random(in: -1000...1000, using: &random)) / 8,
            ]
            if let double = candidates.randomElement(using: &random), double.isFinite { return double }
        }
    }
}

@Suite("OData round trips and fuzzing")
struct ODataRoundTripTests {
    @Test func parsingWrittenTextGivesBackTheSameTree() throws {
        var builder = RandomFilterBuilder(random: SeededGenerator(seed: 42))
        for _ in 0..<3000 {
            let expression = builder.filter(depth: 5)
            let text = try expression.odataText
            #expect(try FilterExpression(odataFilter: text) == expression, "\(text)")
        }
    }

    @Test func randomAndMutatedTextNeverCrashesTheParser() {
        var random = SeededGenerator(seed: 7)
        var builder = RandomFilterBuilder(random: SeededGenerator(seed: 99))
        let vocabulary = [
            "a", "text", " ", "(", ")", ",", "'", "''", "-", "eq", "ne", "and", "or", "not", "add", "mul", "mod", "1",
            "42L",
            "1.5", "1e", "1e999", "9223372036854775808", "null", "true", "datetime'",
            "datetimeoffset'2001-02-03T00:00:00Z'",
            "guid'", "length(", "substring(", "concat(", "'x", "é", "\u{0}", "=", "/", "$", ".",
        ]
        var seeds: [String] = []
        for _ in 0..<200 {
            if let text = try? builder.filter(depth: 4).odataText { seeds.append(text) }
        }
        var parsed = 0
        var rejected = 0
        for iteration in 0..<100_000 {
            var text: String
            if iteration % 2 == 0 {
                let count = Int.random(in: 0..<20, using: &random)
                text = (0..<count).map { _ in vocabulary.randomElement(using: &random) ?? "" }.joined()
            } else {
                var bytes = Array((seeds.randomElement(using: &random) ?? "a").utf8)
                for _ in 0..<Int.random(in: 1...4, using: &random) where !bytes.isEmpty {
                    let position = Int.random(in: 0..<bytes.count, using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: bytes.remove(at: position)
                    case 1: bytes.insert(UInt8.random(in: 0x20...0x7E, using: &random), at: position)
                    default: bytes[position] = UInt8.random(in: 0x20...0x7E, using: &random)
                    }
                }
                text = String(decoding: bytes, as: UTF8.self)
            }
            do {
                _ = try FilterExpression(odataFilter: text)
                parsed += 1
            } catch {
                rejected += 1
            }
        }
        #expect(parsed + rejected == 100_000)
        #expect(parsed > 1000)
        #expect(rejected > 1000)
    }
}
