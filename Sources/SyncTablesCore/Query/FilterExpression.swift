/// A filter over the top-level properties of items: the one expression tree behind local queries,
/// OData `$filter` on the wire, server-side queries, purges and the command line.
///
/// App code builds it with `Column` operators (module SyncTables); the OData parser builds it from `$filter` text.
/// Stores evaluate it with JSON semantics (see the store documentation): comparisons are two-valued,
/// a comparison involving a missing property or `null` is false unless it tests for `null`.
public indirect enum FilterExpression: Sendable, Hashable {
    /// The value of a top-level property (absent properties read as `null`).
    case property(String)
    /// A constant.
    case value(JSONValue)
    /// A date-time constant (`datetime'…'` / `datetimeoffset'…'`, or a Swift `Date`): compared as an instant.
    case timestamp(Timestamp)
    /// Logical negation.
    case not(FilterExpression)
    /// Logical conjunction.
    case and(FilterExpression, FilterExpression)
    /// Logical disjunction.
    case or(FilterExpression, FilterExpression)
    /// A comparison.
    case comparison(ComparisonOperator, FilterExpression, FilterExpression)
    /// Arithmetic on numbers.
    case arithmetic(ArithmeticOperator, FilterExpression, FilterExpression)
    /// Arithmetic negation (`-x`).
    case negate(FilterExpression)
    /// A function call with its arguments in OData order.
    case function(FilterFunction, [FilterExpression])
    /// Membership: true when the left value equals one of the listed values.
    case isIn(FilterExpression, [FilterExpression])
}

/// The comparison operators of OData `$filter`.
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    /// Equal (`eq`); `null eq null` is true.
    case equal = "eq"
    /// Not equal (`ne`).
    case notEqual = "ne"
    /// Less than (`lt`).
    case lessThan = "lt"
    /// Less than or equal (`le`).
    case lessThanOrEqual = "le"
    /// Greater than (`gt`).
    case greaterThan = "gt"
    /// Greater than or equal (`ge`).
    case greaterThanOrEqual = "ge"
}

/// The arithmetic operators of OData `$filter`.
public enum ArithmeticOperator: String, Sendable, Hashable, CaseIterable {
    /// `add`
    case add
    /// `sub`
    case subtract = "sub"
    /// `mul`
    case multiply = "mul"
    /// `div`
    case divide = "div"
    /// `mod`
    case modulo = "mod"
}

/// The OData v3 functions that `$filter` may call, with their OData names.
public enum FilterFunction: String, Sendable, Hashable, CaseIterable {
    /// `substringof(needle, haystack)`: true when haystack contains needle.
    case substringOf = "substringof"
    /// `startswith(text, prefix)`
    case startsWith = "startswith"
    /// `endswith(text, suffix)`
    case endsWith = "endswith"
    /// `length(text)`
    case length
    /// `indexof(text, needle)`: zero-based, -1 when absent.
    case indexOf = "indexof"
    /// `replace(text, find, replacement)`
    case replace
    /// `substring(text, start)` or `substring(text, start, length)`, zero-based.
    case substring
    /// `tolower(text)`
    case toLower = "tolower"
    /// `toupper(text)`
    case toUpper = "toupper"
    /// `trim(text)`
    case trim
    /// `concat(a, b)`
    case concat
    /// `day(date)`
    case day
    /// `month(date)`
    case month
    /// `year(date)`
    case year
    /// `hour(date)`
    case hour
    /// `minute(date)`
    case minute
    /// `second(date)`
    case second
    /// `round(number)`
    case round
    /// `floor(number)`
    case floor
    /// `ceiling(number)`
    case ceiling
}
