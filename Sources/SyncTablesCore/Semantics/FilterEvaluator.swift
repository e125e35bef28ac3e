/// Evaluates a prepared ``FilterExpression`` against one item in Swift: the reference semantics of a filter,
/// which the client's SQLite store and the server's PostgreSQL backend reproduce in SQL.
///
/// Predicates are two-valued. `eq`/`ne` behave like SQL `IS`/`IS NOT` (`null eq null` is true); the
/// other comparisons are false when either side is `null`. Values of different kinds order as
/// null < numbers < text. A comparison with a timestamp compares instants.
///
/// ```swift
/// let filter = try FilterPreparation.prepare(.comparison(.equal, .property("done"), .value(true)), dateProperties: [])
/// FilterEvaluator(dateProperties: []).matches(filter, item: ["id": "a", "done": true])  // true
/// ```
@_spi(SyncTablesTools) public struct FilterEvaluator {
    /// The table's date properties.
    let dateProperties: Set<String>

    /// An evaluator for a table with these date properties.
    @_spi(SyncTablesTools) public init(dateProperties: Set<String>) {
        self.dateProperties = dateProperties
    }

    /// `true` when the item satisfies the filter.
    @_spi(SyncTablesTools) public func matches(_ expression: FilterExpression, item: JSONObject) -> Bool {
        switch expression {
        case .not(let inner):
            return !matches(inner, item: item)
        case .and(let lhs, let rhs):
            return matches(lhs, item: item) && matches(rhs, item: item)
        case .or(let lhs, let rhs):
            return matches(lhs, item: item) || matches(rhs, item: item)
        case .comparison(let op, let lhs, let rhs):
            return compare(op, lhs, rhs, item: item)
        case .isIn(let value, let list):
            return list.contains { compare(.equal, value, $0, item: item) }
        case .function(.startsWith, let arguments):
            return FilterFunctions.startsWith(value(arguments[0], item: item), value(arguments[1], item: item))
        case .function(.endsWith, let arguments):
            return FilterFunctions.endsWith(value(arguments[0], item: item), value(arguments[1], item: item))
        case .function(.substringOf, let arguments):
            return FilterFunctions.substringOf(value(arguments[0], item: item), value(arguments[1], item: item))
        case .property, .value, .timestamp, .arithmetic, .negate, .function:
            // A bare value is true only when it is `true` (the number 1).
            return ProjectedValue.isSame(value(expression, item: item), .integer(1))
        }
    }

    /// The projected value of an expression.
    package func value(_ expression: FilterExpression, item: JSONObject) -> ProjectedValue {
        switch expression {
        case .property(let name):
            return Projection.project(item[name], isDate: FilterPreparation.isDateProperty(name, dateProperties))
        case .value(let constant):
            return Projection.literal(constant)
        case .timestamp(let timestamp):
            return .integer(timestamp.ticks)
        case .not, .and, .or, .comparison, .isIn, .function(.startsWith, _), .function(.endsWith, _),
            .function(.substringOf, _):
            return .integer(matches(expression, item: item) ? 1 : 0)
        case .arithmetic(let op, let lhs, let rhs):
            return FilterFunctions.arithmetic(op, value(lhs, item: item), value(rhs, item: item))
        case .negate(let inner):
            return FilterFunctions.negate(value(inner, item: item))
        case .function(let function, let arguments):
            return call(function, arguments, item: item)
        }
    }

    private func call(_ function: FilterFunction, _ arguments: [FilterExpression], item: JSONObject)
        -> ProjectedValue
    {
        let values = arguments.map { value($0, item: item) }
        switch function {
        case .startsWith, .endsWith, .substringOf:
            return .integer(matches(.function(function, arguments), item: item) ? 1 : 0)
        case .length: return FilterFunctions.length(values[0])
        case .indexOf: return FilterFunctions.indexOf(values[0], values[1])
        case .replace: return FilterFunctions.replace(values[0], values[1], values[2])
        case .substring: return FilterFunctions.substring(values[0], values[1], values.count > 2 ? values[2] : nil)
        case .toLower: return FilterFunctions.toLower(values[0])
        case .toUpper: return FilterFunctions.toUpper(values[0])
        case .trim: return FilterFunctions.trim(values[0])
        case .concat: return FilterFunctions.concat(values[0], values[1])
        case .round: return FilterFunctions.rounded(.round, values[0])
        case .floor: return FilterFunctions.rounded(.floor, values[0])
        case .ceiling: return FilterFunctions.rounded(.ceiling, values[0])
        case .year, .month, .day, .hour, .minute, .second:
            let part = Self.datePart(function)
            return FilterFunctions.datePart(part, values[0], acceptsTicks: acceptsTicks(arguments[0]))
        }
    }

    /// The calendar field a date function reads.
    package static func datePart(_ function: FilterFunction) -> FilterFunctions.DatePart {
        switch function {
        case .month: .month
        case .day: .day
        case .hour: .hour
        case .minute: .minute
        case .second: .second
        default: .year
        }
    }

    /// `true` when the expression is a timestamp constant or a date property, whose integers are ticks.
    package func acceptsTicks(_ expression: FilterExpression) -> Bool {
        switch expression {
        case .timestamp: return true
        case .property(let name): return FilterPreparation.isDateProperty(name, dateProperties)
        default: return false
        }
    }

    private func compare(_ op: ComparisonOperator, _ lhs: FilterExpression, _ rhs: FilterExpression, item: JSONObject)
        -> Bool
    {
        if lhs.isTimestamp || rhs.isTimestamp {
            let left = FilterFunctions.instant(value(lhs, item: item), acceptsTicks: acceptsTicks(lhs))
            let right = FilterFunctions.instant(value(rhs, item: item), acceptsTicks: acceptsTicks(rhs))
            switch op {
            case .equal: return left == right
            case .notEqual: return left != right
            default:
                guard let left, let right else { return false }
                return Self.holds(op, order: left < right ? -1 : (left == right ? 0 : 1))
            }
        }
        let left = value(lhs, item: item)
        let right = value(rhs, item: item)
        switch op {
        case .equal: return ProjectedValue.isSame(left, right)
        case .notEqual: return !ProjectedValue.isSame(left, right)
        default:
            guard !left.isNull, !right.isNull else { return false }
            return Self.holds(op, order: ProjectedValue.order(left, right))
        }
    }

    private static func holds(_ op: ComparisonOperator, order: Int) -> Bool {
        switch op {
        case .equal: order == 0
        case .notEqual: order != 0
        case .lessThan: order < 0
        case .lessThanOrEqual: order <= 0
        case .greaterThan: order > 0
        case .greaterThanOrEqual: order >= 0
        }
    }
}

extension FilterExpression {
    /// `true` for a timestamp constant.
    package var isTimestamp: Bool {
        if case .timestamp = self { return true }
        return false
    }
}
