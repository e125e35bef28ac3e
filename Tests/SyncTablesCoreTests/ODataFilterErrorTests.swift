import Testing

@_spi(SyncTablesTools) @testable import SyncTablesCore

@Suite("OData $filter errors")
struct ODataFilterErrorTests {
    @Test(arguments: [
        ("", ODataError.empty),
        ("   ", .empty),
        ("a eq", .unexpectedEnd(expected: "a value")),
        ("a eq 1 and", .unexpectedEnd(expected: "a value")),
        ("(a eq 1", .unexpectedEnd(expected: "')'")),
        ("a eq 1)", .unexpectedToken(position: 6, found: "')'", expected: "an operator such as 'and', 'or' or 'eq'")),
        ("a b", .unexpectedToken(position: 2, found: "'b'", expected: "an operator such as 'and', 'or' or 'eq'")),
        ("a EQ 1", .unexpectedToken(position: 2, found: "'EQ'", expected: "an operator such as 'and', 'or' or 'eq'")),
        (
            "a eq 1 AND b eq 2",
            .unexpectedToken(position: 7, found: "'AND'", expected: "an operator such as 'and', 'or' or 'eq'")
        ),
        ("a == 1", .unexpectedCharacter(position: 2, character: "=")),
        ("a eq \"x\"", .unexpectedCharacter(position: 5, character: "\"")),
        ("a/b eq 1", .unexpectedCharacter(position: 1, character: "/")),
        ("a eq 1 & b", .unexpectedCharacter(position: 7, character: "&")),
        ("é eq 1", .unexpectedCharacter(position: 0, character: "é")),
        ("a eq 1.", .invalidLiteral(position: 5, text: "1.", reason: "expected a digit")),
        ("a eq 1e", .invalidLiteral(position: 5, text: "1e", reason: "expected a digit")),
        ("a eq .5", .unexpectedCharacter(position: 5, character: ".")),
        ("a eq 12abc", .invalidLiteral(position: 5, text: "12abc", reason: "a number must not run into letters")),
        ("a eq 1.5L", .invalidLiteral(position: 5, text: "1.5L", reason: "a 64-bit integer has no fraction")),
        (
            "a eq 9223372036854775808",
            .invalidLiteral(position: 5, text: "9223372036854775808", reason: "the integer does not fit in 64 bits")
        ),
        (
            "a eq -9223372036854775809",
            .invalidLiteral(position: 5, text: "-9223372036854775809", reason: "the integer does not fit in 64 bits")
        ),
        ("a eq 1e999", .invalidLiteral(position: 5, text: "1e999", reason: "the number is out of range")),
        ("a eq 'abc", .unterminatedString(position: 5)),
        ("a eq 'it''s", .unterminatedString(position: 5)),
        (
            "a eq datetime'yesterday'",
            .invalidLiteral(
                position: 5, text: "datetime'yesterday'",
                reason: "expected an ISO-8601 date-time such as 2001-02-03T04:05:06.789Z")
        ),
        (
            "a eq datetimeoffset'2001-13-01T00:00:00Z'",
            .invalidLiteral(
                position: 5, text: "datetimeoffset'2001-13-01T00:00:00Z'",
                reason: "expected an ISO-8601 date-time such as 2001-02-03T04:05:06.789Z")
        ),
        ("a eq datetime'2001-02-03T04:05:06", .unterminatedString(position: 13)),
        (
            "a eq guid'not-a-guid'",
            .invalidLiteral(position: 5, text: "guid'not-a-guid'", reason: "expected 8-4-4-4-12 hexadecimal digits")
        ),
        ("a eq X'0A'", .invalidLiteral(position: 5, text: "X'0A'", reason: "unsupported literal type")),
        ("a eq time'PT1H'", .invalidLiteral(position: 5, text: "time'PT1H'", reason: "unsupported literal type")),
        ("foo(a) eq 1", .unknownFunction(position: 0, name: "foo")),
        ("ToLower(a) eq 'x'", .unknownFunction(position: 0, name: "ToLower")),
        ("isof(a) eq true", .unknownFunction(position: 0, name: "isof")),
        ("length() eq 1", .wrongArgumentCount(position: 0, function: "length", count: 0, expected: "1")),
        ("length(a,b) eq 1", .wrongArgumentCount(position: 0, function: "length", count: 2, expected: "1")),
        ("substringof('x')", .wrongArgumentCount(position: 0, function: "substringof", count: 1, expected: "2")),
        ("replace(a,'x') eq 'y'", .wrongArgumentCount(position: 0, function: "replace", count: 2, expected: "3")),
        ("substring(a) eq 'y'", .wrongArgumentCount(position: 0, function: "substring", count: 1, expected: "2 to 3")),
        ("concat(a,b,c,d,e,f,g,h,i) eq 'y'", .tooManyArguments(position: 0, limit: 8)),
        ("length(a,) eq 1", .unexpectedToken(position: 9, found: "')'", expected: "a value")),
        ("length(a b) eq 1", .unexpectedToken(position: 9, found: "'b'", expected: "',' or ')'")),
        ("length(a eq 1", .unexpectedEnd(expected: "',' or ')'")),
        ("and eq 1", .unexpectedToken(position: 0, found: "'and'", expected: "a value")),
        ("a eq eq", .unexpectedToken(position: 5, found: "'eq'", expected: "a value")),
        ("a eq or", .unexpectedToken(position: 5, found: "'or'", expected: "a value")),
        ("not", .unexpectedEnd(expected: "a value")),
        ("-", .unexpectedEnd(expected: "a value")),
        ("()", .unexpectedToken(position: 1, found: "')'", expected: "a value")),
        (",", .unexpectedToken(position: 0, found: "','", expected: "a value")),
        (
            "a eq 1, b eq 2",
            .unexpectedToken(position: 6, found: "','", expected: "an operator such as 'and', 'or' or 'eq'")
        ),
        (
            "a in (1,2)",
            .unexpectedToken(position: 2, found: "'in'", expected: "an operator such as 'and', 'or' or 'eq'")
        ),
        (
            "a eq 1 not b",
            .unexpectedToken(position: 7, found: "'not'", expected: "an operator such as 'and', 'or' or 'eq'")
        ),
        ("a eq not", .unexpectedEnd(expected: "a value")),
        // A filter, and each operand of and, or and not, must be able to be true
        ("1", .notBoolean(position: 0)),
        ("'x'", .notBoolean(position: 0)),
        ("null", .notBoolean(position: 0)),
        ("-a", .notBoolean(position: 0)),
        ("(1)", .notBoolean(position: 0)),
        ("a add 1", .notBoolean(position: 0)),
        ("length(text)", .notBoolean(position: 0)),
        ("datetime'2001-01-01T00:00:00Z'", .notBoolean(position: 0)),
        ("a eq 1 and 2", .notBoolean(position: 11)),
        ("1 or a eq 1", .notBoolean(position: 0)),
        ("a or b or (n add 1)", .notBoolean(position: 10)),
        ("not 5", .notBoolean(position: 4)),
        ("not -a eq 1", .notBoolean(position: 4)),
        ("true('x')", .unknownFunction(position: 0, name: "true")),
    ])
    func rejectsInvalidFiltersWithATypedError(text: String, expected: ODataError) {
        #expect(throws: expected) { try FilterExpression(odataFilter: text) }
    }

    @Test func rejectsTextLongerThanTheLimit() {
        let text = "a eq '" + String(repeating: "x", count: 9000) + "'"
        #expect(throws: ODataError.tooLong(length: 9007, limit: 8192)) { try FilterExpression(odataFilter: text) }
    }

    @Test func honoursACustomLengthLimit() {
        let limits = ODataLimits(maximumLength: 5)
        #expect(throws: ODataError.tooLong(length: 6, limit: 5)) {
            try FilterExpression(odataFilter: "a eq 1", limits: limits)
        }
    }

    @Test func rejectsParenthesesNestedBeyondTheLimit() {
        let text = String(repeating: "(", count: 65) + "a" + String(repeating: ")", count: 65)
        #expect(throws: ODataError.tooDeep(position: 64, limit: 64)) { try FilterExpression(odataFilter: text) }
    }

    @Test func acceptsParenthesesNestedUpToTheLimit() throws {
        let text = String(repeating: "(", count: 64) + "a" + String(repeating: ")", count: 64)
        #expect(try FilterExpression(odataFilter: text) == .property("a"))
    }

    @Test func rejectsLongNotChainsBeyondTheLimit() {
        let text = String(repeating: "not ", count: 1000) + "a"
        #expect(throws: ODataError.tooDeep(position: 256, limit: 64)) { try FilterExpression(odataFilter: text) }
    }

    @Test func rejectsLongMinusChainsBeyondTheLimit() {
        let text = "a eq " + String(repeating: "-", count: 5000) + "b"
        #expect(throws: ODataError.tooDeep(position: 69, limit: 64)) { try FilterExpression(odataFilter: text) }
    }

    @Test func rejectsExpressionTreesDeeperThanTheLimitEvenWithoutParentheses() {
        let text = (0..<100).map { "a\($0)" }.joined(separator: " eq ")
        #expect {
            try FilterExpression(odataFilter: text)
        } throws: { error in
            guard case ODataError.tooDeep(_, let limit) = error else { return false }
            return limit == 64
        }
    }

    @Test func rejectsHostileNestingFarBeyondTheLimitQuickly() {
        let text = String(repeating: "length(", count: 1000)
        #expect(throws: ODataError.tooDeep(position: 448, limit: 64)) { try FilterExpression(odataFilter: text) }
    }

    @Test func describesErrorsWithPositions() {
        let error = ODataError.unexpectedToken(position: 6, found: "')'", expected: "a value")
        #expect(error.description == "Invalid query at position 6: expected a value but found ')'.")
        #expect(ODataError.invalidPropertyName("a b").description.contains("\"a b\""))
    }
}
