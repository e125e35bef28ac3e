/// A condition on the items of a table, built from ``Column`` operators and combined with `&&`, `||` and `!`.
///
/// It wraps the one `FilterExpression` tree that local reads, pulls (as OData `$filter`) and purges share.
///
/// ```swift
/// let dueSoon = Column("complete") == false && Column("due") < Date().addingTimeInterval(86_400)
/// let query = todos.query().filter(dueSoon)
/// ```
public struct QueryFilter: Sendable, Hashable {
    /// The expression tree this filter stands for.
    public let expression: FilterExpression

    /// Creates a filter from an expression tree, e.g. one parsed from OData `$filter` text.
    public init(_ expression: FilterExpression) {
        self.expression = expression
    }

    /// True when both filters are true.
    public static func && (lhs: QueryFilter, rhs: QueryFilter) -> QueryFilter {
        QueryFilter(.and(lhs.expression, rhs.expression))
    }

    /// True when either filter is true.
    public static func || (lhs: QueryFilter, rhs: QueryFilter) -> QueryFilter {
        QueryFilter(.or(lhs.expression, rhs.expression))
    }

    /// True when the filter is false (filters are two-valued, so `!` never yields "unknown").
    public static prefix func ! (filter: QueryFilter) -> QueryFilter {
        QueryFilter(.not(filter.expression))
    }
}
