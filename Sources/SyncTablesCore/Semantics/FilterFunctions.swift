/// The Swift implementations of filter functions and arithmetic, shared by every evaluator of a filter.
///
/// ``FilterEvaluator`` (and so `MemoryStore` and the server) calls them directly; `SQLiteStore` registers them as SQL functions, so Unicode case
/// mapping, string positions and number edge cases agree exactly. Positions and lengths count Unicode
/// scalars (as SQLite's `length`/`substr` do). Arguments of the wrong type give `null`; predicates give `false`.
package enum FilterFunctions {
    // MARK: Predicates

    /// `startswith(text, prefix)`.
    package static func startsWith(_ text: ProjectedValue, _ prefix: ProjectedValue) -> Bool {
        guard case .text(let text) = text, case .text(let prefix) = prefix else { return false }
        return text.utf8.starts(with: prefix.utf8)
    }

    /// `endswith(text, suffix)`.
    package static func endsWith(_ text: ProjectedValue, _ suffix: ProjectedValue) -> Bool {
        guard case .text(let text) = text, case .text(let suffix) = suffix else { return false }
        return text.utf8.reversed().starts(with: suffix.utf8.reversed())
    }

    /// `substringof(needle, haystack)`.
    package static func substringOf(_ needle: ProjectedValue, _ haystack: ProjectedValue) -> Bool {
        guard case .text(let needle) = needle, case .text(let haystack) = haystack else { return false }
        return byteOffset(of: Array(needle.utf8), in: Array(haystack.utf8)) != nil
    }

    // MARK: Strings

    /// `length(text)` in Unicode scalars.
    package static func length(_ text: ProjectedValue) -> ProjectedValue {
        guard case .text(let text) = text else { return .null }
        return .integer(Int64(text.unicodeScalars.count))
    }

    /// `indexof(text, needle)`: the zero-based scalar position of the first match, `-1` when absent.
    package static func indexOf(_ text: ProjectedValue, _ needle: ProjectedValue) -> ProjectedValue {
        guard case .text(let text) = text, case .text(let needle) = needle else { return .null }
        let bytes = Array(text.utf8)
        guard let offset = byteOffset(of: Array(needle.utf8), in: bytes) else { return .integer(-1) }
        // Count scalar starts (bytes that are not UTF-8 continuation bytes) before the match.
        let scalars = bytes[..<offset].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return .integer(Int64(scalars))
    }

    /// `replace(text, find, replacement)`: every occurrence; an empty `find` changes nothing.
    package static func replace(_ text: ProjectedValue, _ find: ProjectedValue, _ replacement: ProjectedValue)
        -> ProjectedValue
    {
        guard case .text(let text) = text, case .text(let find) = find, case .text(let replacement) = replacement
        else { return .null }
        let source = Array(text.utf8)
        let pattern = Array(find.utf8)
        guard !pattern.isEmpty else { return .text(text) }
        var output: [UInt8] = []
        output.reserveCapacity(source.count)
        var index = 0
        while index < source.count {
            if index + pattern.count <= source.count, source[index..<index + pattern.count].elementsEqual(pattern) {
                output.append(contentsOf: replacement.utf8)
                index += pattern.count
            } else {
                output.append(source[index])
                index += 1
            }
        }
        return .text(String(decoding: output, as: UTF8.self))
    }

    /// `substring(text, start)` / `substring(text, start, length)`, zero-based, clamped to the text.
    package static func substring(_ text: ProjectedValue, _ start: ProjectedValue, _ length: ProjectedValue?)
        -> ProjectedValue
    {
        guard case .text(let text) = text, let start = integral(start) else { return .null }
        let scalars = Array(text.unicodeScalars)
        let lower = Int(clamping: max(0, min(start, Int64(scalars.count))))
        var upper = scalars.count
        if let length {
            guard let count = integral(length) else { return .null }
            upper = Int(clamping: min(Int64(scalars.count), Int64(lower) + max(0, min(count, Int64(Int32.max)))))
        }
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars[lower..<upper])
        return .text(result)
    }

    /// `tolower(text)` with full Unicode case mapping.
    package static func toLower(_ text: ProjectedValue) -> ProjectedValue {
        guard case .text(let text) = text else { return .null }
        return .text(text.lowercased())
    }

    /// `toupper(text)` with full Unicode case mapping.
    package static func toUpper(_ text: ProjectedValue) -> ProjectedValue {
        guard case .text(let text) = text else { return .null }
        return .text(text.uppercased())
    }

    /// `trim(text)`: removes leading and trailing Unicode white space.
    package static func trim(_ text: ProjectedValue) -> ProjectedValue {
        guard case .text(let text) = text else { return .null }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return .text("") }
        return .text(String(scalars[first...last]))
    }

    /// `concat(a, b)` of two strings.
    package static func concat(_ lhs: ProjectedValue, _ rhs: ProjectedValue) -> ProjectedValue {
        guard case .text(let lhs) = lhs, case .text(let rhs) = rhs else { return .null }
        return .text(lhs + rhs)
    }

    // MARK: Dates

    /// The parts `day(…)`, `month(…)`, ... read from an instant.
    package enum DatePart: Int64, CaseIterable {
        case year = 0
        case month, day, hour, minute, second
    }

    /// An instant: integer ticks are accepted only from date properties and timestamp constants
    /// (`acceptsTicks`); text is parsed as ISO-8601. Anything else is not an instant.
    package static func instant(_ value: ProjectedValue, acceptsTicks: Bool) -> Int64? {
        switch value {
        case .integer(let ticks) where acceptsTicks: return ticks
        case .text(let text): return Projection.ticks(iso8601: text)
        default: return nil
        }
    }

    /// One UTC calendar field of an instant, or `null` when the value is not an instant.
    package static func datePart(_ part: DatePart, _ value: ProjectedValue, acceptsTicks: Bool) -> ProjectedValue {
        guard let ticks = instant(value, acceptsTicks: acceptsTicks) else { return .null }
        let fields = Timestamp(ticks: ticks).utcComponents
        let number: Int
        switch part {
        case .year: number = fields.year
        case .month: number = fields.month
        case .day: number = fields.day
        case .hour: number = fields.hour
        case .minute: number = fields.minute
        case .second: number = fields.second
        }
        return .integer(Int64(number))
    }

    // MARK: Numbers

    /// The rounding functions.
    package enum Rounding: Int64 {
        case round = 0
        case floor, ceiling
    }

    /// `round` (half away from zero), `floor` or `ceiling`; integers are unchanged.
    package static func rounded(_ rounding: Rounding, _ value: ProjectedValue) -> ProjectedValue {
        switch value {
        case .integer: return value
        case .real(let real):
            switch rounding {
            case .round: return .real(real.rounded(.toNearestOrAwayFromZero))
            case .floor: return .real(real.rounded(.down))
            case .ceiling: return .real(real.rounded(.up))
            }
        default: return .null
        }
    }

    /// Arithmetic: integers stay integers (falling back to reals on overflow), division or modulo by
    /// zero gives `null`, non-numbers give `null`.
    package static func arithmetic(_ operation: ArithmeticOperator, _ lhs: ProjectedValue, _ rhs: ProjectedValue)
        -> ProjectedValue
    {
        switch (lhs, rhs) {
        case (.integer(let a), .integer(let b)):
            let result: (partialValue: Int64, overflow: Bool)
            switch operation {
            case .add: result = a.addingReportingOverflow(b)
            case .subtract: result = a.subtractingReportingOverflow(b)
            case .multiply: result = a.multipliedReportingOverflow(by: b)
            case .divide:
                guard b != 0 else { return .null }
                result = a.dividedReportingOverflow(by: b)
            case .modulo:
                guard b != 0 else { return .null }
                if b == -1 { return .integer(0) }
                result = (a % b, false)
            }
            if !result.overflow { return .integer(result.partialValue) }
            return realArithmetic(operation, Double(a), Double(b))
        default:
            guard let a = number(lhs), let b = number(rhs) else { return .null }
            return realArithmetic(operation, a, b)
        }
    }

    /// `-x` for a number.
    package static func negate(_ value: ProjectedValue) -> ProjectedValue {
        switch value {
        case .integer(let integer):
            return integer == .min ? .real(-Double(integer)) : .integer(-integer)
        case .real(let real): return .real(-real)
        default: return .null
        }
    }

    private static func realArithmetic(_ operation: ArithmeticOperator, _ a: Double, _ b: Double) -> ProjectedValue {
        let result: Double
        switch operation {
        case .add: result = a + b
        case .subtract: result = a - b
        case .multiply: result = a * b
        case .divide:
            guard b != 0 else { return .null }
            result = a / b
        case .modulo:
            guard b != 0 else { return .null }
            result = a.truncatingRemainder(dividingBy: b)
        }
        return result.isFinite ? .real(result) : .null
    }

    private static func number(_ value: ProjectedValue) -> Double? {
        switch value {
        case .integer(let integer): return Double(integer)
        case .real(let real): return real
        default: return nil
        }
    }

    /// An integer argument: an integer, or a real without fraction.
    private static func integral(_ value: ProjectedValue) -> Int64? {
        switch value {
        case .integer(let integer): return integer
        case .real(let real) where real == real.rounded() && abs(real) < 9.0e18: return Int64(real)
        default: return nil
        }
    }

    private static func byteOffset(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard !needle.isEmpty else { return 0 }
        guard needle.count <= haystack.count else { return nil }
        for start in 0...(haystack.count - needle.count)
        where haystack[start] == needle[0] && haystack[start..<start + needle.count].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
