/// The constants of a filter as the evaluators see them.
extension FilterExpression {
    /// The projected value of a plain constant, or `nil` for anything else.
    ///
    /// ```swift
    /// FilterExpression.value(true).constantValue       // .integer(1)
    /// FilterExpression.property("done").constantValue  // nil
    /// ```
    @_spi(SyncTablesTools) public var constantValue: ProjectedValue? {
        if case .value(let value) = self { return Projection.literal(value) }
        return nil
    }

    /// `true` for a plain constant.
    package var isConstant: Bool { constantValue != nil }

    /// `true` for the constant `null`.
    package var isNullConstant: Bool { constantValue?.isNull == true }

    /// `true` for a string constant.
    package var isStringConstant: Bool {
        if case .text? = constantValue { return true }
        return false
    }
}
