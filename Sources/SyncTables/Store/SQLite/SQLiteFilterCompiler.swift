@_spi(SyncTablesTools) import SyncTablesCore
@_spi(SyncTablesTools) import SyncTablesSQLite

/// Compiles a prepared `FilterExpression` into a parameterized SQL condition over a table's projected
/// columns, reproducing ``FilterEvaluator`` exactly.
///
/// Every constant is a bound parameter; the only text spliced into SQL is generated column names, fixed
/// keywords and function names. Predicates are two-valued: under `NOT` or when used as a value they are
/// wrapped so NULL becomes 0. At the top of a WHERE clause (and through AND/OR) NULL already means "no
/// row", so plain comparisons are kept there and indexes stay usable.
struct SQLiteFilterCompiler {
    /// A compiled condition.
    struct Output {
        var sql = ""
        var bindings: [SQLiteValue] = []
        /// Large `isIn` lists, loaded into the temporary set table before the statement runs.
        var valueSets: [[SQLiteValue]] = []
    }

    /// Lists longer than this go through the temporary set table instead of one parameter per value.
    static let inlineListLimit = 50

    let table: SQLiteTableState
    private(set) var output = Output()

    init(table: SQLiteTableState) {
        self.table = table
    }

    /// Compiles `filter` as a WHERE condition.
    static func compile(_ filter: FilterExpression, table: SQLiteTableState) -> Output {
        var compiler = SQLiteFilterCompiler(table: table)
        compiler.output.sql = compiler.predicate(filter, nullMeansFalse: true)
        return compiler.output
    }

    // MARK: Predicates

    private mutating func predicate(_ expression: FilterExpression, nullMeansFalse: Bool) -> String {
        switch expression {
        case .not(let inner):
            return "(NOT \(predicate(inner, nullMeansFalse: false)))"
        case .and(let lhs, let rhs):
            return
                "(\(predicate(lhs, nullMeansFalse: nullMeansFalse)) AND \(predicate(rhs, nullMeansFalse: nullMeansFalse)))"
        case .or(let lhs, let rhs):
            return
                "(\(predicate(lhs, nullMeansFalse: nullMeansFalse)) OR \(predicate(rhs, nullMeansFalse: nullMeansFalse)))"
        case .comparison(let op, let lhs, let rhs):
            return comparison(op, lhs, rhs, nullMeansFalse: nullMeansFalse)
        case .isIn(let value, let list):
            return membership(value, list, nullMeansFalse: nullMeansFalse)
        case .function(.startsWith, let arguments):
            return call(SQLiteFilterFunctions.Name.startsWith, arguments)
        case .function(.endsWith, let arguments):
            return call(SQLiteFilterFunctions.Name.endsWith, arguments)
        case .function(.substringOf, let arguments):
            return call(SQLiteFilterFunctions.Name.substringOf, arguments)
        case .property, .value, .timestamp, .arithmetic, .negate, .function:
            return "(\(scalar(expression)) IS 1)"
        }
    }

    private mutating func comparison(
        _ op: ComparisonOperator, _ lhs: FilterExpression, _ rhs: FilterExpression, nullMeansFalse: Bool
    ) -> String {
        if case .timestamp(let left) = lhs, case .timestamp(let right) = rhs {
            let holds = FilterEvaluator(dateProperties: []).matches(
                .comparison(op, .timestamp(left), .timestamp(right)), item: JSONObject())
            return holds ? "1" : "0"
        }
        if case .timestamp(let instant) = rhs { return instantComparison(op, lhs, instant, nullMeansFalse) }
        if case .timestamp(let instant) = lhs { return instantComparison(op.flipped, rhs, instant, nullMeansFalse) }

        let left = scalar(lhs, textAffinityAllowed: rhs.isStringConstant)
        let right = scalar(rhs, textAffinityAllowed: lhs.isStringConstant)
        let oneSideIsNull = lhs.isNullConstant || rhs.isNullConstant
        switch op {
        case .equal:
            if oneSideIsNull { return "(\(lhs.isNullConstant ? right : left) IS NULL)" }
            if nullMeansFalse && (lhs.isConstant || rhs.isConstant) { return "(\(left) = \(right))" }
            return "(\(left) IS \(right))"
        case .notEqual:
            if oneSideIsNull { return "(\(lhs.isNullConstant ? right : left) IS NOT NULL)" }
            return "(\(left) IS NOT \(right))"
        default:
            if oneSideIsNull { return "0" }
            let condition = "\(left) \(op.sqlOperator) \(right)"
            return nullMeansFalse ? "(\(condition))" : "IFNULL(\(condition), 0)"
        }
    }

    /// `value op instant`: date properties compare their integer ticks; anything else is parsed as ISO-8601.
    private mutating func instantComparison(
        _ op: ComparisonOperator, _ value: FilterExpression, _ instant: Timestamp, _ nullMeansFalse: Bool
    ) -> String {
        if case .property(let name) = value, table.isDate(name) {
            guard let column = table.column(for: name) else { return op == .notEqual ? "1" : "0" }
            let ticks = bind(.integer(instant.ticks))
            let condition = "(typeof(\"\(column.name)\") = 'integer' AND \"\(column.name)\" \(op.sqlOperator) \(ticks))"
            return op == .notEqual
                ? "(NOT (typeof(\"\(column.name)\") = 'integer' AND \"\(column.name)\" = \(ticks)))" : condition
        }
        let parsed = "\(SQLiteFilterFunctions.Name.instant)(\(scalar(value)))"
        let ticks = bind(.integer(instant.ticks))
        switch op {
        case .equal: return "(\(parsed) IS \(ticks))"
        case .notEqual: return "(\(parsed) IS NOT \(ticks))"
        default:
            let condition = "\(parsed) \(op.sqlOperator) \(ticks)"
            return nullMeansFalse ? "(\(condition))" : "IFNULL(\(condition), 0)"
        }
    }

    private mutating func membership(_ value: FilterExpression, _ list: [FilterExpression], nullMeansFalse: Bool)
        -> String
    {
        guard !list.isEmpty else { return "0" }
        let constants = list.compactMap(\.constantValue)
        let needsInstants = value.isTimestamp || list.contains(where: \.isTimestamp)
        guard constants.count == list.count, !needsInstants else {
            // General case: one equality per item, exactly as the evaluator does.
            let terms = list.map { comparison(.equal, value, $0, nullMeansFalse: nullMeansFalse) }
            return "(" + terms.joined(separator: " OR ") + ")"
        }
        let nonNull = constants.filter { !$0.isNull }
        let allText = nonNull.allSatisfy { if case .text = $0 { true } else { false } }
        let subject = scalar(value, textAffinityAllowed: allText)
        var terms: [String] = []
        if nonNull.count < constants.count { terms.append("\(subject) IS NULL") }
        if !nonNull.isEmpty {
            let inList: String
            if nonNull.count > Self.inlineListLimit {
                output.valueSets.append(nonNull.map(\.sqliteValue))
                let setID = bind(.integer(Int64(output.valueSets.count)))
                inList = "\(subject) IN (SELECT v FROM temp.\(SQLiteValueSets.tableName) WHERE set_id = \(setID))"
            } else {
                let parameters = nonNull.map { bind($0.sqliteValue) }.joined(separator: ", ")
                inList = "\(subject) IN (\(parameters))"
            }
            terms.append(nullMeansFalse ? inList : "IFNULL(\(inList), 0)")
        }
        return "(" + terms.joined(separator: " OR ") + ")"
    }

    // MARK: Values

    /// The SQL of a value. `textAffinityAllowed` lets `id` keep its TEXT affinity (and its index) when it
    /// is compared with text; otherwise `+id` drops the affinity so `id = 5` does not become `id = '5'`.
    private mutating func scalar(_ expression: FilterExpression, textAffinityAllowed: Bool = false) -> String {
        switch expression {
        case .property("id"):
            return textAffinityAllowed ? "id" : "+id"
        case .property(let name):
            return table.column(for: name).map { "\"\($0.name)\"" } ?? "NULL"
        case .value(let constant):
            let projected = Projection.literal(constant)
            return projected.isNull ? "NULL" : bind(projected.sqliteValue)
        case .timestamp(let instant):
            return bind(.integer(instant.ticks))
        case .not, .and, .or, .comparison, .isIn, .function(.startsWith, _), .function(.endsWith, _),
            .function(.substringOf, _):
            return predicate(expression, nullMeansFalse: false)
        case .arithmetic(let op, let lhs, let rhs):
            return call(SQLiteFilterFunctions.Name.arithmetic(op), [lhs, rhs])
        case .negate(let inner):
            return call(SQLiteFilterFunctions.Name.negate, [inner])
        case .function(let function, let arguments):
            return functionCall(function, arguments)
        }
    }

    private mutating func functionCall(_ function: FilterFunction, _ arguments: [FilterExpression]) -> String {
        typealias Name = SQLiteFilterFunctions.Name
        switch function {
        case .startsWith: return call(Name.startsWith, arguments)
        case .endsWith: return call(Name.endsWith, arguments)
        case .substringOf: return call(Name.substringOf, arguments)
        case .length: return call(Name.length, arguments)
        case .indexOf: return call(Name.indexOf, arguments)
        case .replace: return call(Name.replace, arguments)
        case .substring: return call(Name.substring, arguments)
        case .toLower: return call(Name.toLower, arguments)
        case .toUpper: return call(Name.toUpper, arguments)
        case .trim: return call(Name.trim, arguments)
        case .concat: return call(Name.concat, arguments)
        case .round: return "\(Name.rounded)(\(scalar(arguments[0])), \(FilterFunctions.Rounding.round.rawValue))"
        case .floor: return "\(Name.rounded)(\(scalar(arguments[0])), \(FilterFunctions.Rounding.floor.rawValue))"
        case .ceiling:
            return "\(Name.rounded)(\(scalar(arguments[0])), \(FilterFunctions.Rounding.ceiling.rawValue))"
        case .year, .month, .day, .hour, .minute, .second:
            let part = FilterEvaluator.datePart(function).rawValue
            let acceptsTicks = FilterEvaluator(dateProperties: table.definition.dateProperties)
                .acceptsTicks(arguments[0])
            return "\(Name.datePart)(\(scalar(arguments[0])), \(part), \(acceptsTicks ? 1 : 0))"
        }
    }

    private mutating func call(_ name: String, _ arguments: [FilterExpression]) -> String {
        var parts: [String] = []
        for argument in arguments { parts.append(scalar(argument, textAffinityAllowed: true)) }
        return "\(name)(\(parts.joined(separator: ", ")))"
    }

    private mutating func bind(_ value: SQLiteValue) -> String {
        output.bindings.append(value)
        return "?\(output.bindings.count)"
    }
}
