import Foundation

@_spi(SyncTablesTools) @testable import SyncTables

/// One generated `$filter`: the tree it means, written in OData v3 (what SyncTables reads) and in OData v4 (what
/// the independent parser `odata-query` reads).
struct GeneratedFilter {
    var expression: FilterExpression
    var v3: String
    var v4: String
    /// How tightly the text binds: 8 for a primary (literal, member, call, parentheses), 7 for unary `not`/`-`,
    /// then `mul div mod`, `add sub`, `gt ge lt le`, `eq ne`, `and`, and 1 for `or`.
    var level: Int
}

/// Builds random, well-typed filters and writes them with as few parentheses as OData's precedence allows (plus
/// some redundant ones), so that parsing them back depends on precedence and associativity.
///
/// Spellings that differ between v3 and v4 are mapped: `datetimeoffset'…'` is a bare date-time in v4,
/// `guid'…'` a bare GUID, `substringof(needle, haystack)` is `contains(haystack, needle)`, and the v3 number
/// suffixes (`42L`, `1.5M`) are dropped. `replace` has no v4 counterpart and is not generated.
struct DifferentialFilterGenerator {
    private var random: SeededGenerator

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    private static let booleanMembers = ["done", "flag"]
    private static let numberMembers = ["n", "price", "qty"]
    private static let textMembers = ["text", "title", "Name", "id"]
    private static let dateMembers = ["d", "updatedAt"]
    private static let characters = ["a", "Z", " ", "'", "é", "😀", "(", ")", ",", "eq", "and", "-", "%", "\\", "\""]

    // MARK: Typed expressions

    mutating func boolean(depth: Int) -> GeneratedFilter {
        if depth <= 0 || chance(1, in: 6) {
            return chance(1, in: 3) ? literal(.bool(Bool.random(using: &random))) : member(Self.booleanMembers)
        }
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return prefix("not", boolean(depth: depth - 1)) { .not($0) }
        case 1, 2:
            return binary(boolean(depth: depth - 1), "and", 2, boolean(depth: depth - 1)) { .and($0, $1) }
        case 3:
            return binary(boolean(depth: depth - 1), "or", 1, boolean(depth: depth - 1)) { .or($0, $1) }
        case 4: return comparison(number(depth: depth - 1), number(depth: depth - 1))
        case 5: return comparison(text(depth: depth - 1), text(depth: depth - 1))
        case 6: return comparison(date(depth: depth - 1), date(depth: depth - 1))
        case 7:
            let op = chance(1, in: 2) ? ComparisonOperator.equal : .notEqual
            let other = chance(1, in: 2) ? literal(.null) : boolean(depth: depth - 1)
            return compare(op, boolean(depth: depth - 1), other)
        default:
            let haystack = text(depth: depth - 1)
            let needle = text(depth: depth - 1)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: return call(.startsWith, [haystack, needle])
            case 1: return call(.endsWith, [haystack, needle])
            default:
                var substring = call(.substringOf, [needle, haystack])
                substring.v4 = "contains(\(haystack.v4), \(needle.v4))"
                return substring
            }
        }
    }

    mutating func number(depth: Int) -> GeneratedFilter {
        if depth <= 0 || chance(1, in: 4) {
            switch Int.random(in: 0..<3, using: &random) {
            case 0: return member(Self.numberMembers)
            case 1:
                let small = Int64.random(in: -20...20, using: &random)
                let integer = chance(1, in: 8) ? Int64.random(in: -(1 << 62)...(1 << 62), using: &random) : small
                var value = literal(.integer(integer))
                if chance(1, in: 4) { value.v3 += "L" }
                return value
            default:
                let candidates = [
                    Double(Int.random(in: -800...800, using: &random)) / 8, 1.5e20, 2.5e-7, 0.1,
                    Double(Int.random(in: 1...9, using: &random)) * 1e-300,
                ]
                var value = literal(.double(candidates.randomElement(using: &random) ?? 0.5))
                if chance(1, in: 4) { value.v3 += ["M", "d"].randomElement(using: &random) ?? "M" }
                return value
            }
        }
        switch Int.random(in: 0..<9, using: &random) {
        case 0: return negate(number(depth: depth - 1))
        case 1, 2:
            let op = [ArithmeticOperator.add, .subtract].randomElement(using: &random) ?? .add
            return binary(number(depth: depth - 1), op.rawValue, 5, number(depth: depth - 1)) {
                .arithmetic(op, $0, $1)
            }
        case 3, 4:
            let op = [ArithmeticOperator.multiply, .divide, .modulo].randomElement(using: &random) ?? .multiply
            return binary(number(depth: depth - 1), op.rawValue, 6, number(depth: depth - 1)) {
                .arithmetic(op, $0, $1)
            }
        case 5: return call(.length, [text(depth: depth - 1)])
        case 6: return call(.indexOf, [text(depth: depth - 1), text(depth: depth - 1)])
        case 7:
            let function = [FilterFunction.year, .month, .day, .hour, .minute, .second].randomElement(using: &random)
            return call(function ?? .year, [date(depth: depth - 1)])
        default:
            let function = [FilterFunction.round, .floor, .ceiling].randomElement(using: &random) ?? .round
            return call(function, [number(depth: depth - 1)])
        }
    }

    mutating func text(depth: Int) -> GeneratedFilter {
        if depth <= 0 || chance(1, in: 3) {
            switch Int.random(in: 0..<4, using: &random) {
            case 0, 1: return member(Self.textMembers)
            case 2:
                let length = Int.random(in: 0..<6, using: &random)
                let content = (0..<length).map { _ in Self.characters.randomElement(using: &random) ?? "a" }
                return literal(.string(content.joined()))
            default: return guid()
            }
        }
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            let function = [FilterFunction.toLower, .toUpper, .trim].randomElement(using: &random) ?? .trim
            return call(function, [text(depth: depth - 1)])
        case 1: return call(.concat, [text(depth: depth - 1), text(depth: depth - 1)])
        default:
            var arguments = [text(depth: depth - 1), number(depth: depth - 1)]
            if chance(1, in: 2) { arguments.append(number(depth: depth - 1)) }
            return call(.substring, arguments)
        }
    }

    mutating func date(depth: Int) -> GeneratedFilter {
        guard chance(1, in: 2) else { return member(Self.dateMembers) }
        let year = Int.random(in: 1000...9999, using: &random)
        let month = Int.random(in: 1...12, using: &random)
        let day = Int.random(in: 1...28, using: &random)
        let hour = Int.random(in: 0...23, using: &random)
        let minute = Int.random(in: 0...59, using: &random)
        let second = Int.random(in: 0...59, using: &random)
        let millisecond = Int.random(in: 0...999, using: &random)
        let zone: String
        if chance(1, in: 2) {
            zone = "Z"
        } else {
            let offsetHours = Int.random(in: 0...14, using: &random)
            zone = (chance(1, in: 2) ? "+" : "-") + pad(offsetHours, 2) + ":" + (chance(1, in: 2) ? "00" : "30")
        }
        let text =
            "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
            + ".\(pad(millisecond, 3))\(zone)"
        let instant = (try? Timestamp(iso8601: text)) ?? .epoch
        let prefix = chance(1, in: 2) ? "datetimeoffset" : "datetime"
        return GeneratedFilter(expression: .timestamp(instant), v3: "\(prefix)'\(text)'", v4: text, level: 8)
    }

    // MARK: Building blocks

    private mutating func comparison(_ left: GeneratedFilter, _ right: GeneratedFilter) -> GeneratedFilter {
        compare(ComparisonOperator.allCases.randomElement(using: &random) ?? .equal, left, right)
    }

    private mutating func compare(
        _ op: ComparisonOperator, _ left: GeneratedFilter, _ right: GeneratedFilter
    ) -> GeneratedFilter {
        let level = op == .equal || op == .notEqual ? 3 : 4
        return binary(left, op.rawValue, level, right) { .comparison(op, $0, $1) }
    }

    /// A left-associative binary operator: the left operand may bind as loosely as the operator itself, the
    /// right one must bind tighter.
    private mutating func binary(
        _ left: GeneratedFilter,
        _ keyword: String,
        _ level: Int,
        _ right: GeneratedFilter,
        _ build: (FilterExpression, FilterExpression) -> FilterExpression
    ) -> GeneratedFilter {
        let lhs = wrap(left, atLeast: level)
        let rhs = wrap(right, atLeast: level + 1)
        return GeneratedFilter(
            expression: build(lhs.expression, rhs.expression),
            v3: "\(lhs.v3) \(keyword) \(rhs.v3)",
            v4: "\(lhs.v4) \(keyword) \(rhs.v4)",
            level: level
        )
    }

    private mutating func prefix(
        _ keyword: String, _ operand: GeneratedFilter, _ build: (FilterExpression) -> FilterExpression
    ) -> GeneratedFilter {
        let inner = wrap(operand, atLeast: 7)
        return GeneratedFilter(
            expression: build(inner.expression), v3: "\(keyword) \(inner.v3)", v4: "\(keyword) \(inner.v4)", level: 7)
    }

    private mutating func negate(_ operand: GeneratedFilter) -> GeneratedFilter {
        let inner = wrap(operand, atLeast: 7)
        // `-5` is a literal, `- 5` the negation of one.
        let separator = inner.v3.first?.isNumber == true ? " " : ""
        return GeneratedFilter(
            expression: .negate(inner.expression), v3: "-\(separator)\(inner.v3)", v4: "-\(separator)\(inner.v4)",
            level: 7)
    }

    private mutating func call(_ function: FilterFunction, _ arguments: [GeneratedFilter]) -> GeneratedFilter {
        let separator = chance(1, in: 2) ? ", " : ","
        return GeneratedFilter(
            expression: .function(function, arguments.map(\.expression)),
            v3: "\(function.rawValue)(\(arguments.map(\.v3).joined(separator: separator)))",
            v4: "\(function.rawValue)(\(arguments.map(\.v4).joined(separator: separator)))",
            level: 8
        )
    }

    /// Parenthesizes a piece that binds more loosely than `level`, and now and then one that needs none.
    private mutating func wrap(_ piece: GeneratedFilter, atLeast level: Int) -> GeneratedFilter {
        guard piece.level < level || chance(1, in: 12) else { return piece }
        return GeneratedFilter(expression: piece.expression, v3: "(\(piece.v3))", v4: "(\(piece.v4))", level: 8)
    }

    private mutating func member(_ names: [String]) -> GeneratedFilter {
        let name = names.randomElement(using: &random) ?? "n"
        return GeneratedFilter(expression: .property(name), v3: name, v4: name, level: 8)
    }

    private func literal(_ value: JSONValue) -> GeneratedFilter {
        let text: String
        switch value {
        case .null: text = "null"
        case .bool(let bool): text = bool ? "true" : "false"
        case .integer(let integer): text = String(integer)
        case .double(let double): text = String(double)
        case .string(let string): text = "'" + string.replacingOccurrences(of: "'", with: "''") + "'"
        case .array, .object: text = "null"
        }
        return GeneratedFilter(expression: .value(value), v3: text, v4: text, level: 8)
    }

    private mutating func guid() -> GeneratedFilter {
        let hex = Array("0123456789abcdefABCDEF")
        let groups = [8, 4, 4, 4, 12].map { count in
            String((0..<count).map { _ in hex.randomElement(using: &random) ?? "0" })
        }
        let content = groups.joined(separator: "-")
        return GeneratedFilter(expression: .value(.string(content)), v3: "guid'\(content)'", v4: content, level: 8)
    }

    private mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        Int.random(in: 0..<denominator, using: &random) < numerator
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
