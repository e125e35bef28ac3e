/// Parses OData v3 `$filter` text into a ``FilterExpression`` by recursive descent.
///
/// Precedence follows the OData grammar (URL conventions, "Operator Precedence"), loosest first: `or`, `and`,
/// `eq ne`, `gt ge lt le`, `add sub`, `mul div mod`, then the unary `not` and `-`, then primaries
/// (parentheses, literals, members, function calls). So `not a eq b` is `(not a) eq b`, and `b eq n gt 5` is
/// `b eq (n gt 5)`. Binary operators group left to right. A `$filter` is a Boolean expression: the whole
/// filter and the operands of `and`, `or` and `not` must be able to be true (`$filter=1` is an error).
///
/// Operators, keywords and function names are case-sensitive and lowercase, as in OData. The text must
/// already be percent-decoded (that is the HTTP layer's job). Every failure is a typed ``ODataError``;
/// nesting and length are bounded by ``ODataLimits`` so no input can crash or exhaust the stack. A flat
/// chain of one logical operator (`id eq 'a' or id eq 'b' or …`) counts as one level, however long.
///
/// ```swift
/// let filter = try ODataFilterParser.parse("(text eq 'MATCH') and (updatedAt ge datetimeoffset'2000-01-01T00:00:00Z')")
/// ```
public enum ODataFilterParser {
    /// Parses `$filter` text.
    ///
    /// - Throws: ``ODataError`` for text that is not a valid `$filter` or goes beyond `limits`.
    public static func parse(_ text: String, limits: ODataLimits = ODataLimits()) throws(ODataError) -> FilterExpression
    {
        let length = text.utf8.count
        guard length <= limits.maximumLength else { throw .tooLong(length: length, limit: limits.maximumLength) }
        var tokenizer = ODataTokenizer(text)
        var parser = FilterParser(tokens: try tokenizer.tokenize(), limits: limits)
        return try parser.parseFilter()
    }

    /// The words `$filter` reserves: a member with one of these names cannot be referenced.
    static let keywords: Set<String> = [
        "and", "or", "not", "eq", "ne", "gt", "ge", "lt", "le", "add", "sub", "mul", "div", "mod", "true", "false",
        "null",
    ]
}

extension FilterExpression {
    /// Parses OData v3 `$filter` text; see ``ODataFilterParser``.
    ///
    /// - Throws: ``ODataError`` for text that is not a valid `$filter` or goes beyond `limits`.
    public init(odataFilter text: String, limits: ODataLimits = ODataLimits()) throws(ODataError) {
        self = try ODataFilterParser.parse(text, limits: limits)
    }
}

/// A parsed node, where its text starts, and the depth of its tree, so deep trees are rejected while they
/// are built.
private struct Parsed {
    var expression: FilterExpression
    var depth: Int
    var position: Int
}

private struct FilterParser {
    private let tokens: [ODataToken]
    private let limits: ODataLimits
    private var index = 0
    /// How deep the recursive descent currently is (parentheses, `not`, `-`, calls).
    private var nesting = 0

    init(tokens: [ODataToken], limits: ODataLimits) {
        self.tokens = tokens
        self.limits = limits
    }

    private var current: ODataToken { tokens[min(index, tokens.count - 1)] }

    private func isKeyword(_ word: String) -> Bool {
        if case .identifier(let name) = current.kind { return name == word }
        return false
    }

    private mutating func advance() { index = min(index + 1, tokens.count - 1) }

    mutating func parseFilter() throws(ODataError) -> FilterExpression {
        guard current.kind != .end else { throw .empty }
        let parsed = try parseOr()
        guard current.kind == .end else {
            throw unexpected(expected: "an operator such as 'and', 'or' or 'eq'")
        }
        try requireBoolean(parsed)
        return parsed.expression
    }

    private func unexpected(expected: String) -> ODataError {
        if current.kind == .end { return .unexpectedEnd(expected: expected) }
        return .unexpectedToken(position: current.position, found: current.displayText, expected: expected)
    }

    /// Builds a node above its children, enforcing the depth limit on the tree.
    private func node(_ expression: FilterExpression, children: [Parsed], at position: Int) throws(ODataError) -> Parsed
    {
        let depth = 1 + children.reduce(0) { max($0, $1.depth) }
        guard depth <= limits.maximumDepth else { throw .tooDeep(position: position, limit: limits.maximumDepth) }
        return Parsed(expression: expression, depth: depth, position: children.first?.position ?? position)
    }

    private mutating func enter(at position: Int) throws(ODataError) {
        nesting += 1
        guard nesting <= limits.maximumDepth else { throw .tooDeep(position: position, limit: limits.maximumDepth) }
    }

    private mutating func leave() { nesting -= 1 }

    /// Refuses an operand that can never be true (a number, a string, arithmetic, a non-Boolean function).
    private func requireBoolean(_ parsed: Parsed) throws(ODataError) {
        guard parsed.expression.canBeBoolean else { throw .notBoolean(position: parsed.position) }
    }

    // MARK: Logical operators

    private mutating func parseOr() throws(ODataError) -> Parsed {
        try parseChain(
            of: "or", operand: { parser throws(ODataError) in try parser.parseAnd() }, combine: { .or($0, $1) })
    }

    private mutating func parseAnd() throws(ODataError) -> Parsed {
        try parseChain(
            of: "and", operand: { parser throws(ODataError) in try parser.parseEquality() }, combine: { .and($0, $1) })
    }

    /// A flat chain `a op b op c …`, built in a loop as a left-leaning tree; the chain counts as one level of
    /// depth above its deepest operand, so a client may list hundreds of alternatives.
    private mutating func parseChain(
        of keyword: String,
        operand: (inout FilterParser) throws(ODataError) -> Parsed,
        combine: (FilterExpression, FilterExpression) -> FilterExpression
    ) throws(ODataError) -> Parsed {
        let first = try operand(&self)
        guard isKeyword(keyword) else { return first }
        try requireBoolean(first)
        var expression = first.expression
        var deepestOperand = first.depth
        while isKeyword(keyword) {
            let position = current.position
            advance()
            let next = try operand(&self)
            try requireBoolean(next)
            expression = combine(expression, next.expression)
            deepestOperand = max(deepestOperand, next.depth)
            guard deepestOperand < limits.maximumDepth else {
                throw .tooDeep(position: position, limit: limits.maximumDepth)
            }
        }
        return Parsed(expression: expression, depth: deepestOperand + 1, position: first.position)
    }

    // MARK: Comparison and arithmetic

    private mutating func parseEquality() throws(ODataError) -> Parsed {
        var left = try parseRelational()
        while case .identifier(let name) = current.kind, name == "eq" || name == "ne",
            let op = ComparisonOperator(rawValue: name)
        {
            let position = current.position
            advance()
            let right = try parseRelational()
            left = try node(.comparison(op, left.expression, right.expression), children: [left, right], at: position)
        }
        return left
    }

    private mutating func parseRelational() throws(ODataError) -> Parsed {
        var left = try parseAdditive()
        while case .identifier(let name) = current.kind, name != "eq" && name != "ne",
            let op = ComparisonOperator(rawValue: name)
        {
            let position = current.position
            advance()
            let right = try parseAdditive()
            left = try node(.comparison(op, left.expression, right.expression), children: [left, right], at: position)
        }
        return left
    }

    private mutating func parseAdditive() throws(ODataError) -> Parsed {
        var left = try parseMultiplicative()
        while case .identifier(let name) = current.kind, name == "add" || name == "sub",
            let op = ArithmeticOperator(rawValue: name)
        {
            let position = current.position
            advance()
            let right = try parseMultiplicative()
            left = try node(.arithmetic(op, left.expression, right.expression), children: [left, right], at: position)
        }
        return left
    }

    private mutating func parseMultiplicative() throws(ODataError) -> Parsed {
        var left = try parseUnary()
        while case .identifier(let name) = current.kind, name == "mul" || name == "div" || name == "mod",
            let op = ArithmeticOperator(rawValue: name)
        {
            let position = current.position
            advance()
            let right = try parseUnary()
            left = try node(.arithmetic(op, left.expression, right.expression), children: [left, right], at: position)
        }
        return left
    }

    /// `not x` and `-x`: they bind tighter than every binary operator.
    private mutating func parseUnary() throws(ODataError) -> Parsed {
        if isKeyword("not") {
            let position = current.position
            advance()
            try enter(at: position)
            let operand = try parseUnary()
            leave()
            try requireBoolean(operand)
            var negation = try node(.not(operand.expression), children: [operand], at: position)
            negation.position = position
            return negation
        }
        guard current.kind == .minus else { return try parsePrimary() }
        let minus = current
        advance()
        // A minus written right against a number is the number's sign (so Int64.min can be written).
        if case .number(let text) = current.kind, current.position == minus.endPosition {
            let literal = try numberValue(text, negative: true, position: minus.position)
            advance()
            return Parsed(expression: literal, depth: 1, position: minus.position)
        }
        try enter(at: minus.position)
        let operand = try parseUnary()
        leave()
        var negation = try node(.negate(operand.expression), children: [operand], at: minus.position)
        negation.position = minus.position
        return negation
    }

    // MARK: Primaries

    private mutating func parsePrimary() throws(ODataError) -> Parsed {
        let token = current
        switch token.kind {
        case .openParenthesis:
            advance()
            try enter(at: token.position)
            let inner = try parseOr()
            leave()
            guard current.kind == .closeParenthesis else { throw unexpected(expected: "')'") }
            advance()
            return Parsed(expression: inner.expression, depth: inner.depth, position: token.position)
        case .string(let text):
            advance()
            return Parsed(expression: .value(.string(text)), depth: 1, position: token.position)
        case .number(let text):
            advance()
            let literal = try numberValue(text, negative: false, position: token.position)
            return Parsed(expression: literal, depth: 1, position: token.position)
        case .typedLiteral(let prefix, let content):
            advance()
            let literal = try typedLiteral(prefix: prefix, content: content, position: token.position)
            return Parsed(expression: literal, depth: 1, position: token.position)
        case .identifier(let name):
            advance()
            if current.kind == .openParenthesis {
                return try parseCall(name: name, position: token.position)
            }
            switch name {
            case "null": return Parsed(expression: .value(.null), depth: 1, position: token.position)
            case "true": return Parsed(expression: .value(.bool(true)), depth: 1, position: token.position)
            case "false": return Parsed(expression: .value(.bool(false)), depth: 1, position: token.position)
            default:
                guard !ODataFilterParser.keywords.contains(name) else {
                    throw .unexpectedToken(position: token.position, found: token.displayText, expected: "a value")
                }
                return Parsed(expression: .property(name), depth: 1, position: token.position)
            }
        case .closeParenthesis, .comma, .minus, .end:
            throw unexpected(expected: "a value")
        }
    }

    private mutating func parseCall(name: String, position: Int) throws(ODataError) -> Parsed {
        guard let function = FilterFunction(rawValue: name) else {
            throw .unknownFunction(position: position, name: name)
        }
        advance()  // past "("
        try enter(at: position)
        var arguments: [Parsed] = []
        if current.kind != .closeParenthesis {
            while true {
                guard arguments.count < limits.maximumFunctionArguments else {
                    throw .tooManyArguments(position: position, limit: limits.maximumFunctionArguments)
                }
                arguments.append(try parseOr())
                guard current.kind == .comma else { break }
                advance()
            }
        }
        guard current.kind == .closeParenthesis else { throw unexpected(expected: "',' or ')'") }
        advance()
        leave()
        try FilterFunctionArity.check(function, count: arguments.count, position: position)
        var call = try node(.function(function, arguments.map(\.expression)), children: arguments, at: position)
        call.position = position
        return call
    }

    // MARK: Literals

    private func numberValue(_ text: String, negative: Bool, position: Int) throws(ODataError) -> FilterExpression {
        let written = negative ? "-" + text : text
        var digits = Substring(written)
        var suffix: Character?
        if let last = digits.last, last.isLetter {
            suffix = last
            digits = digits.dropLast()
        }
        let isIntegral = !digits.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
        let wantsInteger = suffix == "L" || suffix == "l" || (suffix == nil && isIntegral)
        if wantsInteger {
            guard isIntegral else {
                throw .invalidLiteral(position: position, text: written, reason: "a 64-bit integer has no fraction")
            }
            guard let integer = Int64(digits) else {
                throw .invalidLiteral(position: position, text: written, reason: "the integer does not fit in 64 bits")
            }
            return .value(.integer(integer))
        }
        guard let double = Double(digits), double.isFinite else {
            throw .invalidLiteral(position: position, text: written, reason: "the number is out of range")
        }
        return .value(.double(double))
    }

    private func typedLiteral(prefix: String, content: String, position: Int) throws(ODataError) -> FilterExpression {
        switch prefix {
        case "datetime", "datetimeoffset":
            guard let timestamp = ODataDateTime.parse(content) else {
                throw .invalidLiteral(
                    position: position,
                    text: "\(prefix)'\(content)'",
                    reason: "expected an ISO-8601 date-time such as 2001-02-03T04:05:06.789Z"
                )
            }
            return .timestamp(timestamp)
        case "guid":
            guard ODataDateTime.isGUID(content) else {
                throw .invalidLiteral(
                    position: position,
                    text: "guid'\(content)'",
                    reason: "expected 8-4-4-4-12 hexadecimal digits"
                )
            }
            return .value(.string(content))
        default:
            throw .invalidLiteral(position: position, text: "\(prefix)'\(content)'", reason: "unsupported literal type")
        }
    }
}
