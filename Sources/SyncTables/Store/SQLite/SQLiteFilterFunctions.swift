@_spi(SyncTablesTools) import SyncTablesCore
@_spi(SyncTablesTools) import SyncTablesSQLite

/// The SQL functions `SQLiteStore` registers on its connection: thin adapters over ``FilterFunctions``, so
/// SQL filters and the memory store's Swift evaluator compute exactly the same results.
enum SQLiteFilterFunctions {
    /// SQL names of the registered functions (prefixed so they never shadow SQLite's own `trim`, `round`, ...).
    enum Name {
        static let startsWith = "synctables_startswith"
        static let endsWith = "synctables_endswith"
        static let substringOf = "synctables_substringof"
        static let length = "synctables_length"
        static let indexOf = "synctables_indexof"
        static let replace = "synctables_replace"
        static let substring = "synctables_substring"
        static let toLower = "synctables_tolower"
        static let toUpper = "synctables_toupper"
        static let trim = "synctables_trim"
        static let concat = "synctables_concat"
        /// `(value, part, acceptsTicks)`
        static let datePart = "synctables_datepart"
        /// `(value, rounding)`
        static let rounded = "synctables_round"
        /// `(lhs, rhs)` per operator, e.g. `synctables_add`.
        static func arithmetic(_ op: ArithmeticOperator) -> String { "synctables_\(op.rawValue)" }
        static let negate = "synctables_negate"
        /// `(value)`: the instant of an ISO-8601 string, else NULL.
        static let instant = "synctables_instant"
    }

    /// Registers every function on `database`.
    static func register(on database: Database) throws {
        func predicate(_ name: String, _ body: @escaping (ProjectedValue, ProjectedValue) -> Bool) throws {
            try database.createFunction(name: name, argumentCount: 2) { arguments in
                .integer(body(ProjectedValue(arguments[0]), ProjectedValue(arguments[1])) ? 1 : 0)
            }
        }
        func unary(_ name: String, _ body: @escaping (ProjectedValue) -> ProjectedValue) throws {
            try database.createFunction(name: name, argumentCount: 1) { arguments in
                body(ProjectedValue(arguments[0])).sqliteValue
            }
        }
        func binary(_ name: String, _ body: @escaping (ProjectedValue, ProjectedValue) -> ProjectedValue) throws {
            try database.createFunction(name: name, argumentCount: 2) { arguments in
                body(ProjectedValue(arguments[0]), ProjectedValue(arguments[1])).sqliteValue
            }
        }
        try predicate(Name.startsWith, FilterFunctions.startsWith)
        try predicate(Name.endsWith, FilterFunctions.endsWith)
        try predicate(Name.substringOf, FilterFunctions.substringOf)
        try unary(Name.length, FilterFunctions.length)
        try binary(Name.indexOf, FilterFunctions.indexOf)
        try database.createFunction(name: Name.replace, argumentCount: 3) { arguments in
            FilterFunctions.replace(
                ProjectedValue(arguments[0]), ProjectedValue(arguments[1]), ProjectedValue(arguments[2])
            ).sqliteValue
        }
        try database.createFunction(name: Name.substring, argumentCount: 2) { arguments in
            FilterFunctions.substring(ProjectedValue(arguments[0]), ProjectedValue(arguments[1]), nil).sqliteValue
        }
        try database.createFunction(name: Name.substring, argumentCount: 3) { arguments in
            FilterFunctions.substring(
                ProjectedValue(arguments[0]), ProjectedValue(arguments[1]), ProjectedValue(arguments[2])
            ).sqliteValue
        }
        try unary(Name.toLower, FilterFunctions.toLower)
        try unary(Name.toUpper, FilterFunctions.toUpper)
        try unary(Name.trim, FilterFunctions.trim)
        try binary(Name.concat, FilterFunctions.concat)
        try database.createFunction(name: Name.datePart, argumentCount: 3) { arguments in
            guard case .integer(let code) = arguments[1], let part = FilterFunctions.DatePart(rawValue: code) else {
                return .null
            }
            let acceptsTicks = arguments[2] == .integer(1)
            return FilterFunctions.datePart(part, ProjectedValue(arguments[0]), acceptsTicks: acceptsTicks).sqliteValue
        }
        try database.createFunction(name: Name.rounded, argumentCount: 2) { arguments in
            guard case .integer(let code) = arguments[1], let rounding = FilterFunctions.Rounding(rawValue: code) else {
                return .null
            }
            return FilterFunctions.rounded(rounding, ProjectedValue(arguments[0])).sqliteValue
        }
        for op in ArithmeticOperator.allCases {
            try binary(Name.arithmetic(op)) { FilterFunctions.arithmetic(op, $0, $1) }
        }
        try unary(Name.negate, FilterFunctions.negate)
        try unary(Name.instant) { value in
            FilterFunctions.instant(value, acceptsTicks: false).map { .integer($0) } ?? .null
        }
    }
}

extension ProjectedValue {
    /// The projected value of an SQLite value (blobs, which the store never writes, read as null).
    init(_ value: SQLiteValue) {
        switch value {
        case .null, .blob: self = .null
        case .integer(let integer): self = .integer(integer)
        case .real(let real): self = .real(real)
        case .text(let text): self = .text(text)
        }
    }

    /// The value to bind or return to SQLite.
    var sqliteValue: SQLiteValue {
        switch self {
        case .null: .null
        case .integer(let integer): .integer(integer)
        case .real(let real): .real(real)
        case .text(let text): .text(text)
        }
    }
}
