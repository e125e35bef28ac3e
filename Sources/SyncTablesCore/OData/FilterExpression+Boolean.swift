extension FilterExpression {
    /// `false` when the expression can never be `true`: a number, string, date-time or `null` constant,
    /// arithmetic, or a call of a function that returns no Boolean. A property may hold a Boolean, so it can be.
    ///
    /// OData requires a Boolean where `$filter`, `and`, `or` and `not` take an expression.
    var canBeBoolean: Bool {
        switch self {
        case .property, .not, .and, .or, .comparison, .isIn: true
        case .value(.bool): true
        case .value, .timestamp, .arithmetic, .negate: false
        case .function(let function, _): function.returnsBoolean
        }
    }
}

extension FilterFunction {
    /// Whether the function returns a Boolean (`substringof`, `startswith`, `endswith`).
    var returnsBoolean: Bool {
        switch self {
        case .substringOf, .startsWith, .endsWith: true
        default: false
        }
    }
}
