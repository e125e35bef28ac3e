/// Writes a ``FilterExpression`` as OData v3 `$filter` text, the way client libraries emit it.
///
/// Every binary node is parenthesized, strings double their quotes, timestamps become
/// `datetimeoffset'<canonical ISO-8601>'`, doubles always carry a `.` or `E`, and membership
/// (``FilterExpression/isIn(_:_:)``, which OData v3 lacks) becomes a balanced `or` of `eq` comparisons
/// (an empty list becomes the always-false `(1 eq 0)`). Property names that are not OData identifiers are
/// rejected rather than escaped, so no name can inject syntax.
///
/// ```swift
/// let filter = FilterExpression.and(
///     .comparison(.equal, .property("text"), .value("MATCH")),
///     .comparison(.greaterThanOrEqual, .property("updatedAt"), .timestamp(.epoch)))
/// try ODataFilterWriter.text(for: filter)
/// // "((text eq 'MATCH') and (updatedAt ge datetimeoffset'1970-01-01T00:00:00.000Z'))"
/// ```
public enum ODataFilterWriter {
    /// The `$filter` text of an expression (not percent-encoded).
    ///
    /// - Throws: ``ODataError`` for an expression OData cannot express (such as a property name that is not an OData
    ///   identifier).
    public static func text(for expression: FilterExpression) throws(ODataError) -> String {
        var output = ""
        try write(expression, to: &output)
        return output
    }

    /// `true` when a name can be written as an OData member: ASCII letters, digits and `_`, not starting with a
    /// digit, and not a `$filter` keyword.
    public static func isValidPropertyName(_ name: String) -> Bool {
        isIdentifier(name) && !ODataFilterParser.keywords.contains(name)
    }

    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, ODataTokenizer.isIdentifierStart(first) else { return false }
        return name.utf8.allSatisfy(ODataTokenizer.isIdentifierContinuation)
    }

    private static func write(_ expression: FilterExpression, to output: inout String) throws(ODataError) {
        switch expression {
        case .property(let name):
            guard isValidPropertyName(name) else { throw .invalidPropertyName(name) }
            output += name
        case .value(let value):
            try writeLiteral(value, to: &output)
        case .timestamp(let timestamp):
            output += timestamp.odataLiteral
        case .not(let operand):
            output += "(not "
            try write(operand, to: &output)
            output += ")"
        case .and(let left, let right):
            try writeBinary(left, "and", right, to: &output)
        case .or(let left, let right):
            try writeBinary(left, "or", right, to: &output)
        case .comparison(let op, let left, let right):
            try writeBinary(left, op.rawValue, right, to: &output)
        case .arithmetic(let op, let left, let right):
            try writeBinary(left, op.rawValue, right, to: &output)
        case .negate(let operand):
            // Parenthesize the operand so `-(5)` stays a negation instead of becoming the literal -5.
            output += "(-("
            try write(operand, to: &output)
            output += "))"
        case .function(let function, let arguments):
            try FilterFunctionArity.check(function, count: arguments.count, position: 0)
            output += function.rawValue
            output += "("
            for (offset, argument) in arguments.enumerated() {
                if offset > 0 { output += "," }
                try write(argument, to: &output)
            }
            output += ")"
        case .isIn(let subject, let candidates):
            guard !candidates.isEmpty else {
                output += "(1 eq 0)"
                return
            }
            try writeMembership(subject, candidates[...], to: &output)
        }
    }

    private static func writeBinary(
        _ left: FilterExpression,
        _ op: String,
        _ right: FilterExpression,
        to output: inout String
    ) throws(ODataError) {
        output += "("
        try write(left, to: &output)
        output += " \(op) "
        try write(right, to: &output)
        output += ")"
    }

    /// Writes `subject in candidates` as a balanced tree of `or`, so long lists nest only logarithmically.
    private static func writeMembership(
        _ subject: FilterExpression,
        _ candidates: ArraySlice<FilterExpression>,
        to output: inout String
    ) throws(ODataError) {
        if candidates.count == 1, let only = candidates.first {
            try writeBinary(subject, "eq", only, to: &output)
            return
        }
        let middle = candidates.startIndex + candidates.count / 2
        output += "("
        try writeMembership(subject, candidates[..<middle], to: &output)
        output += " or "
        try writeMembership(subject, candidates[middle...], to: &output)
        output += ")"
    }

    private static func writeLiteral(_ value: JSONValue, to output: inout String) throws(ODataError) {
        switch value {
        case .null: output += "null"
        case .bool(let bool): output += bool ? "true" : "false"
        case .integer(let integer): output += String(integer)
        case .double(let double):
            guard double.isFinite else { throw .unrepresentableValue(String(double)) }
            // Swift's shortest text always has "." or "e"; OData spells the exponent "E".
            output += String(double).replacingExponentMarker()
        case .string(let string):
            output += "'"
            output += string.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''")
            output += "'"
        case .array:
            throw .unrepresentableValue("an array")
        case .object:
            throw .unrepresentableValue("an object")
        }
    }
}

extension String {
    fileprivate func replacingExponentMarker() -> String {
        guard contains("e") else { return self }
        return String(map { $0 == "e" ? "E" : $0 })
    }
}

extension FilterExpression {
    /// The OData v3 `$filter` text of this expression; see ``ODataFilterWriter``.
    public var odataText: String {
        get throws(ODataError) { try ODataFilterWriter.text(for: self) }
    }
}
