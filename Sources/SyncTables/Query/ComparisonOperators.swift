// The comparison operators live on `FilterOperand` so that only column-like left-hand sides build
// filters; `Column("done") == true` is a `QueryFilter`, never a `Bool`.

extension FilterOperand {
    /// True when the operand equals `rhs` (`null == null` is true).
    public static func == (lhs: Self, rhs: some FilterValueConvertible) -> QueryFilter {
        compare(.equal, lhs, rhs)
    }

    /// True when the operand differs from `rhs`.
    public static func != (lhs: Self, rhs: some FilterValueConvertible) -> QueryFilter {
        compare(.notEqual, lhs, rhs)
    }

    /// True when the operand is less than `rhs` (false when either side is `null`).
    public static func < (lhs: Self, rhs: some FilterValueConvertible) -> QueryFilter {
        compare(.lessThan, lhs, rhs)
    }

    /// True when the operand is less than or equal to `rhs` (false when either side is `null`).
    public static func <= (lhs: Self, rhs: some FilterValueConvertible) -> QueryFilter {
        compare(.lessThanOrEqual, lhs, rhs)
    }

    /// True when the operand is greater than `rhs` (false when either side is `null`).
    public static func > (lhs: Self, rhs: some FilterValueConvertible) -> QueryFilter {
        compare(.greaterThan, lhs, rhs)
    }

    /// True when the operand is greater than or equal to `rhs` (false when either side is `null`).
    public static func >= (lhs: Self, rhs: some FilterValueConvertible) -> QueryFilter {
        compare(.greaterThanOrEqual, lhs, rhs)
    }

    /// True when the operand is `null` or missing: `Column("due") == nil`.
    public static func == (lhs: Self, rhs: _OptionalNilComparisonType) -> QueryFilter {
        QueryFilter(.comparison(.equal, lhs.filterExpression, .value(.null)))
    }

    /// True when the operand is present and not `null`: `Column("due") != nil`.
    public static func != (lhs: Self, rhs: _OptionalNilComparisonType) -> QueryFilter {
        QueryFilter(.comparison(.notEqual, lhs.filterExpression, .value(.null)))
    }

    private static func compare(
        _ comparison: ComparisonOperator,
        _ lhs: Self,
        _ rhs: some FilterValueConvertible
    ) -> QueryFilter {
        QueryFilter(.comparison(comparison, lhs.filterExpression, rhs.filterExpression))
    }
}
