/// How many arguments each OData v3 function takes.
enum FilterFunctionArity {
    static func range(of function: FilterFunction) -> ClosedRange<Int> {
        switch function {
        case .substringOf, .startsWith, .endsWith, .indexOf, .concat: 2...2
        case .replace: 3...3
        case .substring: 2...3
        case .length, .toLower, .toUpper, .trim, .day, .month, .year, .hour, .minute, .second, .round, .floor,
            .ceiling:
            1...1
        }
    }

    static func check(_ function: FilterFunction, count: Int, position: Int) throws(ODataError) {
        let range = range(of: function)
        guard range.contains(count) else {
            let expected =
                range.lowerBound == range.upperBound
                ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
            throw .wrongArgumentCount(position: position, function: function.rawValue, count: count, expected: expected)
        }
    }
}
