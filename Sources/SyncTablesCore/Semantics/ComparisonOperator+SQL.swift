/// What the SQL compilers of a filter (the client's SQLite store, the server's PostgreSQL backend) need to
/// know about a comparison.
extension ComparisonOperator {
    /// The SQL spelling, the same in SQLite and PostgreSQL.
    ///
    /// ```swift
    /// ComparisonOperator.notEqual.sqlOperator  // "<>"
    /// ```
    @_spi(SyncTablesTools) public var sqlOperator: String {
        switch self {
        case .equal: "="
        case .notEqual: "<>"
        case .lessThan: "<"
        case .lessThanOrEqual: "<="
        case .greaterThan: ">"
        case .greaterThanOrEqual: ">="
        }
    }

    /// The operator with its operands swapped (`a < b` is `b > a`).
    ///
    /// ```swift
    /// ComparisonOperator.lessThan.flipped  // .greaterThan
    /// ```
    @_spi(SyncTablesTools) public var flipped: ComparisonOperator {
        switch self {
        case .lessThan: .greaterThan
        case .lessThanOrEqual: .greaterThanOrEqual
        case .greaterThan: .lessThan
        case .greaterThanOrEqual: .lessThanOrEqual
        case .equal, .notEqual: self
        }
    }
}
