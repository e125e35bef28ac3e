import PostgresNIO
@_spi(SyncTablesTools) import SyncTablesCore

/// Compiles a prepared filter and an ordering into parameterized PostgreSQL over the row columns of
/// ``PostgresRowColumns``, with exactly the meaning `FilterEvaluator` gives them.
///
/// Every value is in SQL as three expressions, its projected form: a rank (0 null, 1 number, 2 text), the
/// number (NULL unless rank 1) and the text in the "C" collation, byte order (NULL unless rank 2). Comparisons
/// follow `ProjectedValue.order`: null < numbers < text. Conditions are two-valued (never NULL) wherever NOT or
/// a value position could see them. Constants are bound parameters; property names appear as string literals
/// inside JSON paths, so that the expression index on `updatedAt` matches the queries.
///
/// What has no exact SQL here (string functions, arithmetic, date parts) compiles to `nil`; the storage then
/// fetches candidate rows in order and filters them with `FilterEvaluator`.
struct PostgresFilterCompiler {
    /// The parameters the compiled SQL refers to as `$1`, `$2`, …
    var binds = PostgresBindings()

    /// A value in its projected form.
    struct Operand {
        var rank: String
        var number: String
        var text: String
    }

    // MARK: Filters

    /// The whole filter as SQL (`exact`), or the conjunction of its top-level terms that compile (`exact`
    /// false: the rows must still be checked in Swift).
    mutating func condition(_ filter: FilterExpression?) -> (sql: String, exact: Bool) {
        guard let filter else { return ("TRUE", true) }
        var terms: [String] = []
        var exact = true
        for term in Self.conjuncts(filter) {
            if let sql = predicate(term, nullMeansFalse: true) {
                terms.append(sql)
            } else {
                exact = false
            }
        }
        return (terms.isEmpty ? "TRUE" : terms.joined(separator: " AND "), exact)
    }

    /// A predicate; `nullMeansFalse` allows a NULL result (top of a WHERE clause, through AND/OR).
    mutating func predicate(_ expression: FilterExpression, nullMeansFalse: Bool) -> String? {
        if !Self.mentionsProperty(expression) {
            return FilterEvaluator(dateProperties: []).matches(expression, item: JSONObject()) ? "TRUE" : "FALSE"
        }
        switch expression {
        case .not(let inner):
            return predicate(inner, nullMeansFalse: false).map { "(NOT \($0))" }
        case .and(let lhs, let rhs):
            guard let left = predicate(lhs, nullMeansFalse: nullMeansFalse),
                let right = predicate(rhs, nullMeansFalse: nullMeansFalse)
            else { return nil }
            return "(\(left) AND \(right))"
        case .or(let lhs, let rhs):
            guard let left = predicate(lhs, nullMeansFalse: nullMeansFalse),
                let right = predicate(rhs, nullMeansFalse: nullMeansFalse)
            else { return nil }
            return "(\(left) OR \(right))"
        case .comparison(let op, let lhs, let rhs):
            return comparison(op, lhs, rhs, nullMeansFalse: nullMeansFalse)
        case .isIn(let value, let list):
            return membership(value, list, nullMeansFalse: nullMeansFalse)
        case .property:
            // A bare value holds when it is `true`, the number 1.
            return comparison(.equal, expression, .value(.integer(1)), nullMeansFalse: nullMeansFalse)
        case .value, .timestamp, .arithmetic, .negate, .function:
            return nil
        }
    }

    private mutating func comparison(
        _ op: ComparisonOperator, _ lhs: FilterExpression, _ rhs: FilterExpression, nullMeansFalse: Bool
    ) -> String? {
        if case .timestamp(let instant) = rhs { return instantComparison(op, lhs, instant, nullMeansFalse) }
        if case .timestamp(let instant) = lhs { return instantComparison(op.flipped, rhs, instant, nullMeansFalse) }
        if let constant = rhs.constantValue, let left = operand(lhs) {
            return compare(op, left, constant, nullMeansFalse: nullMeansFalse)
        }
        if let constant = lhs.constantValue, let right = operand(rhs) {
            return compare(op.flipped, right, constant, nullMeansFalse: nullMeansFalse)
        }
        guard let left = operand(lhs), let right = operand(rhs) else { return nil }
        let (a, b) = (left, right)
        let same =
            "(\(a.rank) = \(b.rank) AND (\(a.rank) = 0 OR (\(a.rank) = 1 AND \(a.number) = \(b.number))"
            + " OR (\(a.rank) = 2 AND \(a.text) = \(b.text))))"
        switch op {
        case .equal: return same
        case .notEqual: return "(NOT \(same))"
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            let sql = op.sqlOperator
            let rankOrder = op == .lessThan || op == .lessThanOrEqual ? "<" : ">"
            return "(\(a.rank) > 0 AND \(b.rank) > 0 AND (\(a.rank) \(rankOrder) \(b.rank)"
                + " OR (\(a.rank) = 1 AND \(b.rank) = 1 AND \(a.number) \(sql) \(b.number))"
                + " OR (\(a.rank) = 2 AND \(b.rank) = 2 AND \(a.text) \(sql) \(b.text))))"
        }
    }

    /// `value op constant`, specialized so that `id` and `updatedAt` comparisons can use their indexes.
    private mutating func compare(
        _ op: ComparisonOperator, _ value: Operand, _ constant: ProjectedValue, nullMeansFalse: Bool
    ) -> String {
        func twoValued(_ sql: String) -> String { nullMeansFalse ? "(\(sql))" : "COALESCE(\(sql), FALSE)" }
        switch (op, constant) {
        case (.equal, .null): return "(\(value.rank) = 0)"
        case (.notEqual, .null): return "(\(value.rank) <> 0)"
        case (_, .null): return "FALSE"
        case (.equal, .text(let text)): return "(\(value.rank) = 2 AND \(twoValued("\(value.text) = \(bind(text))")))"
        case (.equal, _): return twoValued("\(value.number) = \(bindNumber(constant))")
        case (.notEqual, _): return "(NOT \(compare(.equal, value, constant, nullMeansFalse: false)))"
        case (.lessThan, .text(let text)), (.lessThanOrEqual, .text(let text)):
            return
                "(\(value.rank) = 1 OR (\(value.rank) = 2 AND \(twoValued("\(value.text) \(op.sqlOperator) \(bind(text))"))))"
        case (.greaterThan, .text(let text)), (.greaterThanOrEqual, .text(let text)):
            return "(\(value.rank) = 2 AND \(twoValued("\(value.text) \(op.sqlOperator) \(bind(text))")))"
        case (.lessThan, _), (.lessThanOrEqual, _):
            return twoValued("\(value.number) \(op.sqlOperator) \(bindNumber(constant))")
        case (.greaterThan, _), (.greaterThanOrEqual, _):
            return "(\(value.rank) = 2 OR \(twoValued("\(value.number) \(op.sqlOperator) \(bindNumber(constant))")))"
        }
    }

    /// `value op instant`: the value's instant is in `instants` when it is a string that reads as a date-time.
    private mutating func instantComparison(
        _ op: ComparisonOperator, _ value: FilterExpression, _ instant: Timestamp, _ nullMeansFalse: Bool
    ) -> String? {
        guard case .property(let name) = value else {
            return Self.mentionsProperty(value) ? nil : constantTruth(.comparison(op, value, .timestamp(instant)))
        }
        if PostgresRowColumns.dateProperties.contains(name) {
            // A date property holds its ticks as its number (as its SQLite column does): a range of the index.
            let date = Self.property(name)
            let ticks = "\(bind(instant.ticks))::numeric"
            if op == .notEqual { return "(NOT (\(date.rank) = 1 AND \(date.number) = \(ticks)))" }
            return "(\(date.rank) = 1 AND \(date.number) \(op.sqlOperator) \(ticks))"
        }
        let ticks = "(instants ->> \(PostgresSQL.literal(name)))::bigint"
        let bound = "\(bind(instant.ticks))::bigint"
        switch op {
        case .equal: return nullMeansFalse ? "(\(ticks) = \(bound))" : "(\(ticks) IS NOT DISTINCT FROM \(bound))"
        case .notEqual: return "(\(ticks) IS DISTINCT FROM \(bound))"
        default:
            let sql = "\(ticks) \(op.sqlOperator) \(bound)"
            return nullMeansFalse ? "(\(sql))" : "COALESCE(\(sql), FALSE)"
        }
    }

    private mutating func membership(_ value: FilterExpression, _ list: [FilterExpression], nullMeansFalse: Bool)
        -> String?
    {
        guard !list.isEmpty else { return "FALSE" }
        let constants = list.compactMap(\.constantValue)
        guard constants.count == list.count, let subject = operand(value) else {
            var terms: [String] = []
            for item in list {
                guard let term = comparison(.equal, value, item, nullMeansFalse: nullMeansFalse) else { return nil }
                terms.append(term)
            }
            return "(" + terms.joined(separator: " OR ") + ")"
        }
        var texts: [String] = []
        var numbers: [String] = []
        var terms: [String] = []
        for constant in constants {
            switch constant {
            case .null: if terms.isEmpty { terms.append("\(subject.rank) = 0") }
            case .text(let text): texts.append(text)
            case .integer, .real: numbers.append(Self.decimal(constant))
            }
        }
        func twoValued(_ sql: String) -> String { nullMeansFalse ? sql : "COALESCE(\(sql), FALSE)" }
        if !texts.isEmpty {
            terms.append("(\(subject.rank) = 2 AND \(twoValued("\(subject.text) = ANY(\(bind(texts))::text[])")))")
        }
        if !numbers.isEmpty {
            terms.append(twoValued("\(subject.number) = ANY(\(bind(numbers))::numeric[])"))
        }
        return "(" + terms.joined(separator: " OR ") + ")"
    }

    // MARK: Values

    /// The projected form of a property or of a predicate used as a value; `nil` for anything else.
    mutating func operand(_ expression: FilterExpression) -> Operand? {
        switch expression {
        case .property(let name):
            return Self.property(name)
        case .not, .and, .or, .comparison, .isIn:
            guard let condition = predicate(expression, nullMeansFalse: false) else { return nil }
            return Operand(rank: "1", number: "(CASE WHEN \(condition) THEN 1 ELSE 0 END)::numeric", text: "NULL")
        default:
            return nil
        }
    }

    /// The projected form of a property: `id` is its text column, the others read `keys`.
    static func property(_ name: String) -> Operand {
        if name == "id" { return Operand(rank: "2", number: "NULL::numeric", text: "id") }
        let key = "keys -> \(PostgresSQL.literal(name))"
        return Operand(
            rank: "(CASE jsonb_typeof(\(key)) WHEN 'number' THEN 1 WHEN 'string' THEN 2 ELSE 0 END)",
            number: "(CASE WHEN jsonb_typeof(\(key)) = 'number' THEN (\(key))::numeric END)",
            text: "((keys ->> \(PostgresSQL.literal(name))) COLLATE \"C\")"
        )
    }

    // MARK: Ordering

    /// `ORDER BY` terms for an ordering, with the final tie-break on `id` (ascending) the SQLite backend uses.
    static func orderBy(_ ordering: [SortDescriptor]) -> String {
        var terms: [String] = []
        for descriptor in ordering {
            let direction = descriptor.ascending ? "ASC" : "DESC"
            if descriptor.property == "id" {
                terms.append("id \(direction)")
                return terms.joined(separator: ", ")
            }
            // Numbers by value, then text: `keys ->> name` is also a number's text, which must not decide.
            let value = property(descriptor.property)
            terms += [value.rank, value.number, value.text].map { "\($0) \(direction)" }
        }
        terms.append("id ASC")
        return terms.joined(separator: ", ")
    }

    // MARK: Parameters

    private mutating func bind(_ text: String) -> String {
        binds.append(text)
        return "$\(binds.count)::text"
    }

    private mutating func bind(_ texts: [String]) -> String {
        binds.append(texts)
        return "$\(binds.count)"
    }

    private mutating func bind(_ integer: Int64) -> String {
        binds.append(integer)
        return "$\(binds.count)"
    }

    private mutating func bindNumber(_ constant: ProjectedValue) -> String {
        binds.append(Self.decimal(constant))
        return "$\(binds.count)::numeric"
    }

    private func constantTruth(_ expression: FilterExpression) -> String {
        FilterEvaluator(dateProperties: []).matches(expression, item: JSONObject()) ? "TRUE" : "FALSE"
    }

    /// A number as PostgreSQL `numeric` text (the shortest text that reads back as the same double).
    static func decimal(_ value: ProjectedValue) -> String {
        switch value {
        case .integer(let integer): return String(integer)
        case .real(let real) where real.isInfinite: return real > 0 ? "Infinity" : "-Infinity"
        case .real(let real): return "\(real)"
        case .null, .text: return "0"
        }
    }

    // MARK: Structure

    /// The terms of a chain of `and`, flattened without recursion.
    static func conjuncts(_ expression: FilterExpression) -> [FilterExpression] {
        var terms: [FilterExpression] = []
        var pending = [expression]
        while let next = pending.popLast() {
            if case .and(let lhs, let rhs) = next {
                pending.append(rhs)
                pending.append(lhs)
            } else {
                terms.append(next)
            }
        }
        return terms
    }

    /// Whether the value of an expression depends on the row.
    static func mentionsProperty(_ expression: FilterExpression) -> Bool {
        switch expression {
        case .property: return true
        case .value, .timestamp: return false
        case .not(let inner), .negate(let inner): return mentionsProperty(inner)
        case .and(let lhs, let rhs), .or(let lhs, let rhs), .comparison(_, let lhs, let rhs),
            .arithmetic(_, let lhs, let rhs):
            return mentionsProperty(lhs) || mentionsProperty(rhs)
        case .isIn(let value, let list): return mentionsProperty(value) || list.contains(where: mentionsProperty)
        case .function(_, let arguments): return arguments.contains(where: mentionsProperty)
        }
    }
}
