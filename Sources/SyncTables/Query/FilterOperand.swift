/// A column-like operand of a filter: a property of the items, or a function of one.
///
/// ``Column`` and the result of ``lowercased()`` / ``uppercased()`` conform; comparisons, `in`,
/// `hasPrefix`, `hasSuffix` and `contains` are available on every operand.
///
/// ```swift
/// Column("text").lowercased().hasPrefix("buy")
/// ```
public protocol FilterOperand: FilterValueConvertible {}

extension FilterOperand {
    /// The operand converted to lower case (OData `tolower`); non-strings become `null`.
    public func lowercased() -> ComputedColumn {
        ComputedColumn(.function(.toLower, [filterExpression]))
    }

    /// The operand converted to upper case (OData `toupper`); non-strings become `null`.
    public func uppercased() -> ComputedColumn {
        ComputedColumn(.function(.toUpper, [filterExpression]))
    }

    /// True when the operand is a string starting with `prefix` (OData `startswith`, case-sensitive).
    public func hasPrefix(_ prefix: some FilterValueConvertible) -> QueryFilter {
        QueryFilter(.function(.startsWith, [filterExpression, prefix.filterExpression]))
    }

    /// True when the operand is a string ending with `suffix` (OData `endswith`, case-sensitive).
    public func hasSuffix(_ suffix: some FilterValueConvertible) -> QueryFilter {
        QueryFilter(.function(.endsWith, [filterExpression, suffix.filterExpression]))
    }

    /// True when the operand is a string containing `needle` (OData `substringof`, case-sensitive).
    public func contains(_ needle: some FilterValueConvertible) -> QueryFilter {
        QueryFilter(.function(.substringOf, [needle.filterExpression, filterExpression]))
    }

    /// True when the operand equals one of `values`; an empty list matches nothing.
    ///
    /// ```swift
    /// Column("status").in(["open", "blocked"])
    /// ```
    public func `in`<Value: FilterValueConvertible>(_ values: [Value]) -> QueryFilter {
        QueryFilter(.isIn(filterExpression, values.map(\.filterExpression)))
    }
}

/// An operand computed from a column, such as `Column("text").lowercased()`.
///
/// It compares like a column but cannot be used as a sort key (stores order by properties only).
public struct ComputedColumn: FilterOperand, Hashable {
    /// The expression that computes the operand.
    public let filterExpression: FilterExpression

    /// Creates an operand from an expression.
    public init(_ expression: FilterExpression) {
        self.filterExpression = expression
    }
}
