/// Checks a filter and rewrites it into the form both stores evaluate.
///
/// - Functions must be called with their arity, else ``StoreError/invalidQuery(message:)``.
/// - A date property compared with (or listed against) a string constant that is an ISO-8601 date-time is
///   compared as an instant, exactly as if the constant were a `.timestamp`.
enum FilterPreparation {
    /// The checked and rewritten filter.
    static func prepare(_ expression: FilterExpression, dateProperties: Set<String>) throws(StoreError)
        -> FilterExpression
    {
        try rewrite(expression, dateProperties: dateProperties)
    }

    /// `true` when `name` is a date property of the table (`id` never is).
    static func isDateProperty(_ name: String, _ dateProperties: Set<String>) -> Bool {
        name != "id" && dateProperties.contains(name)
    }

    /// The numbers of arguments each function accepts.
    static func arities(of function: FilterFunction) -> ClosedRange<Int> {
        switch function {
        case .substringOf, .startsWith, .endsWith, .indexOf, .concat: 2...2
        case .replace: 3...3
        case .substring: 2...3
        case .length, .toLower, .toUpper, .trim, .day, .month, .year, .hour, .minute, .second, .round, .floor,
            .ceiling:
            1...1
        }
    }

    private static func rewrite(_ expression: FilterExpression, dateProperties: Set<String>) throws(StoreError)
        -> FilterExpression
    {
        func again(_ inner: FilterExpression) throws(StoreError) -> FilterExpression {
            try rewrite(inner, dateProperties: dateProperties)
        }
        switch expression {
        case .property, .value, .timestamp:
            return expression
        case .not(let inner):
            return .not(try again(inner))
        case .and(let lhs, let rhs):
            return .and(try again(lhs), try again(rhs))
        case .or(let lhs, let rhs):
            return .or(try again(lhs), try again(rhs))
        case .comparison(let op, let lhs, let rhs):
            let (left, right) = (try again(lhs), try again(rhs))
            if case .property(let name) = left, isDateProperty(name, dateProperties) {
                return .comparison(op, left, asInstant(right))
            }
            if case .property(let name) = right, isDateProperty(name, dateProperties) {
                return .comparison(op, asInstant(left), right)
            }
            return .comparison(op, left, right)
        case .arithmetic(let op, let lhs, let rhs):
            return .arithmetic(op, try again(lhs), try again(rhs))
        case .negate(let inner):
            return .negate(try again(inner))
        case .function(let function, let arguments):
            guard arities(of: function).contains(arguments.count) else {
                throw StoreError.invalidQuery(
                    message: "\(function.rawValue) takes \(describe(arities(of: function))) arguments, "
                        + "not \(arguments.count)")
            }
            var rewritten: [FilterExpression] = []
            for argument in arguments { rewritten.append(try again(argument)) }
            return .function(function, rewritten)
        case .isIn(let value, let list):
            let left = try again(value)
            var items: [FilterExpression] = []
            items.reserveCapacity(list.count)
            let isDate: Bool
            if case .property(let name) = left, isDateProperty(name, dateProperties) {
                isDate = true
            } else {
                isDate = false
            }
            for item in list {
                let rewritten = try again(item)
                items.append(isDate ? asInstant(rewritten) : rewritten)
            }
            return .isIn(left, items)
        }
    }

    /// A string constant that reads as a date-time becomes a timestamp constant.
    private static func asInstant(_ expression: FilterExpression) -> FilterExpression {
        if case .value(.string(let text)) = expression, let ticks = StoreCoding.ticks(iso8601: text) {
            return .timestamp(Timestamp(ticks: ticks))
        }
        return expression
    }

    private static func describe(_ range: ClosedRange<Int>) -> String {
        range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound) or \(range.upperBound)"
    }
}
