/// Checks a filter and rewrites it into the form both stores evaluate.
///
/// - Functions must be called with their arity, else ``FilterPreparationError``.
/// - A date property compared with (or listed against) a string constant that is an ISO-8601 date-time is
///   compared as an instant, exactly as if the constant were a `.timestamp`.
/// - Long chains of `and`/`or` are rebalanced (so thousands of terms neither overflow the stack nor exceed
///   SQLite's expression depth), and `p eq 1 or p eq 2 or …` becomes `p in (1, 2, …)` (the same meaning,
///   one parameter-free list instead of thousands of bound constants).
@_spi(SyncTablesTools) public enum FilterPreparation {
    /// The checked and rewritten filter, for a table with these date properties.
    ///
    /// ```swift
    /// let filter = try FilterPreparation.prepare(
    ///     .comparison(.greaterThan, .property("updatedAt"), .value("2024-05-01T00:00:00Z")),
    ///     dateProperties: ["updatedAt"])
    /// // .comparison(.greaterThan, .property("updatedAt"), .timestamp(…)): compared as an instant
    /// ```
    @_spi(SyncTablesTools) public static func prepare(_ expression: FilterExpression, dateProperties: Set<String>)
        throws(FilterPreparationError)
        -> FilterExpression
    {
        try rewrite(expression, dateProperties: dateProperties)
    }

    /// `true` when `name` is a date property of the table (`id` never is).
    package static func isDateProperty(_ name: String, _ dateProperties: Set<String>) -> Bool {
        name != "id" && dateProperties.contains(name)
    }

    private static func rewrite(_ expression: FilterExpression, dateProperties: Set<String>)
        throws(FilterPreparationError)
        -> FilterExpression
    {
        func again(_ inner: FilterExpression) throws(FilterPreparationError) -> FilterExpression {
            try rewrite(inner, dateProperties: dateProperties)
        }
        switch expression {
        case .property, .value, .timestamp:
            return expression
        case .not(let inner):
            return .not(try again(inner))
        case .and:
            var terms: [FilterExpression] = []
            for term in mergingEqualities(chain(expression, isAnd: true), negated: true) {
                terms.append(try again(term))
            }
            return balanced(terms, isAnd: true)
        case .or:
            var terms: [FilterExpression] = []
            for term in mergingEqualities(chain(expression, isAnd: false), negated: false) {
                terms.append(try again(term))
            }
            return balanced(terms, isAnd: false)
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
            guard function.argumentCounts.contains(arguments.count) else {
                throw FilterPreparationError(
                    message: "\(function.rawValue) takes \(describe(function.argumentCounts)) arguments, "
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

    /// The operands of a chain of `and` (or of `or`), flattened without recursion.
    private static func chain(_ expression: FilterExpression, isAnd: Bool) -> [FilterExpression] {
        var terms: [FilterExpression] = []
        var pending = [expression]
        while let next = pending.popLast() {
            switch (next, isAnd) {
            case (.and(let lhs, let rhs), true), (.or(let lhs, let rhs), false):
                pending.append(rhs)
                pending.append(lhs)
            default:
                terms.append(next)
            }
        }
        return terms
    }

    /// Rebuilds a chain as a balanced tree, so its depth is logarithmic.
    private static func balanced(_ terms: [FilterExpression], isAnd: Bool) -> FilterExpression {
        guard terms.count > 1 else { return terms[0] }
        let middle = terms.count / 2
        let lhs = balanced(Array(terms[..<middle]), isAnd: isAnd)
        let rhs = balanced(Array(terms[middle...]), isAnd: isAnd)
        return isAnd ? .and(lhs, rhs) : .or(lhs, rhs)
    }

    /// Turns several `property eq constant` terms of one `or` chain into one `isIn` per property; with
    /// `negated`, several `property ne constant` (or `not (property eq constant)`) terms of one `and` chain
    /// into one `not isIn`. Both have exactly the meaning of the chain they replace.
    private static func mergingEqualities(_ terms: [FilterExpression], negated: Bool) -> [FilterExpression] {
        var constants: [String: [FilterExpression]] = [:]
        var order: [String] = []
        var others: [FilterExpression] = []
        for term in terms {
            guard let (name, constant) = equality(term, negated: negated) else {
                others.append(term)
                continue
            }
            if constants[name] == nil { order.append(name) }
            constants[name, default: []].append(.value(constant))
        }
        var merged: [FilterExpression] = []
        for name in order {
            guard let values = constants[name] else { continue }
            let membership: FilterExpression =
                values.count == 1 ? .comparison(.equal, .property(name), values[0]) : .isIn(.property(name), values)
            merged.append(negated ? .not(membership) : membership)
        }
        return merged + others
    }

    /// The property and constant of `p eq c` (or, `negated`, of `p ne c` / `not (p eq c)`).
    private static func equality(_ term: FilterExpression, negated: Bool) -> (String, JSONValue)? {
        switch (term, negated) {
        case (.comparison(.equal, .property(let name), .value(let constant)), false),
            (.comparison(.equal, .value(let constant), .property(let name)), false),
            (.comparison(.notEqual, .property(let name), .value(let constant)), true),
            (.comparison(.notEqual, .value(let constant), .property(let name)), true),
            (.not(.comparison(.equal, .property(let name), .value(let constant))), true),
            (.not(.comparison(.equal, .value(let constant), .property(let name))), true):
            return (name, constant)
        default:
            return nil
        }
    }

    /// A string constant that reads as a date-time becomes a timestamp constant.
    private static func asInstant(_ expression: FilterExpression) -> FilterExpression {
        if case .value(.string(let text)) = expression, let ticks = Projection.ticks(iso8601: text) {
            return .timestamp(Timestamp(ticks: ticks))
        }
        return expression
    }

    private static func describe(_ range: ClosedRange<Int>) -> String {
        range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound) or \(range.upperBound)"
    }
}

/// Why ``FilterPreparation/prepare(_:dateProperties:)`` refused a filter: a function called with the wrong
/// number of arguments.
///
/// The stores report it as `StoreError.invalidQuery(message:)`, with this message.
@_spi(SyncTablesTools) public struct FilterPreparationError: Error, Sendable, Hashable {
    /// What is wrong, e.g. `startswith takes 2 arguments, not 3`.
    @_spi(SyncTablesTools) public var message: String

    /// An error with this message.
    @_spi(SyncTablesTools) public init(message: String) {
        self.message = message
    }
}
