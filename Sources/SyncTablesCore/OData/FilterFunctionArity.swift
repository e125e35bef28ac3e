extension FilterFunction {
    /// How many arguments the function takes.
    public var argumentCounts: ClosedRange<Int> {
        switch self {
        case .substringOf, .startsWith, .endsWith, .indexOf, .concat: 2...2
        case .replace: 3...3
        case .substring: 2...3
        case .length, .toLower, .toUpper, .trim, .day, .month, .year, .hour, .minute, .second, .round, .floor,
            .ceiling:
            1...1
        }
    }
}

/// Checks a parsed call's argument count against ``FilterFunction/argumentCounts``.
enum FilterFunctionArity {
    static func check(_ function: FilterFunction, count: Int, position: Int) throws(ODataError) {
        let range = function.argumentCounts
        guard range.contains(count) else {
            let expected =
                range.lowerBound == range.upperBound
                ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
            throw .wrongArgumentCount(position: position, function: function.rawValue, count: count, expected: expected)
        }
    }
}
