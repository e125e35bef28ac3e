import Testing

@_spi(SyncTablesTools) @testable import SyncTablesCore

private func p(_ name: String) -> FilterExpression { .property(name) }
private func v(_ value: JSONValue) -> FilterExpression { .value(value) }
private func eq(_ l: FilterExpression, _ r: FilterExpression) -> FilterExpression { .comparison(.equal, l, r) }
private func cmp(_ op: ComparisonOperator, _ l: FilterExpression, _ r: FilterExpression) -> FilterExpression {
    .comparison(op, l, r)
}
private func math(_ op: ArithmeticOperator, _ l: FilterExpression, _ r: FilterExpression) -> FilterExpression {
    .arithmetic(op, l, r)
}
private func call(_ function: FilterFunction, _ arguments: FilterExpression...) -> FilterExpression {
    .function(function, arguments)
}
private func ts(_ text: String) -> FilterExpression {
    .timestamp(Timestamp(parsing: text) ?? .epoch)
}

@Suite("OData $filter parsing")
struct ODataFilterParsingTests {
    static let cases: [(String, FilterExpression)] = [
        // Comparisons
        ("text eq 'MATCH'", eq(p("text"), v("MATCH"))),
        ("a ne 1", cmp(.notEqual, p("a"), v(1))),
        ("a gt 1", cmp(.greaterThan, p("a"), v(1))),
        ("a ge 1", cmp(.greaterThanOrEqual, p("a"), v(1))),
        ("a lt 1", cmp(.lessThan, p("a"), v(1))),
        ("a le 1", cmp(.lessThanOrEqual, p("a"), v(1))),
        ("1 eq a", eq(v(1), p("a"))),
        ("a eq b", eq(p("a"), p("b"))),
        ("a eq null", eq(p("a"), v(nil))),
        ("a ne null", cmp(.notEqual, p("a"), v(nil))),
        ("complete eq true", eq(p("complete"), v(true))),
        ("complete eq false", eq(p("complete"), v(false))),
        ("_private eq 1", eq(p("_private"), v(1))),
        ("Text eq 'x'", eq(p("Text"), v("x"))),
        ("a1_b2 eq 1", eq(p("a1_b2"), v(1))),
        ("datetime eq 1", eq(p("datetime"), v(1))),
        ("length eq 1", eq(p("length"), v(1))),
        ("Null eq 1", eq(p("Null"), v(1))),
        ("a eq b eq c", eq(eq(p("a"), p("b")), p("c"))),
        // Logical operators and precedence
        ("a eq 1 and b eq 2", .and(eq(p("a"), v(1)), eq(p("b"), v(2)))),
        ("a eq 1 or b eq 2", .or(eq(p("a"), v(1)), eq(p("b"), v(2)))),
        ("a or b and c", .or(p("a"), .and(p("b"), p("c")))),
        ("a and b or c", .or(.and(p("a"), p("b")), p("c"))),
        ("(a or b) and c", .and(.or(p("a"), p("b")), p("c"))),
        ("a and b and c", .and(.and(p("a"), p("b")), p("c"))),
        ("a or b or c", .or(.or(p("a"), p("b")), p("c"))),
        ("not a", .not(p("a"))),
        ("not a eq 1", eq(.not(p("a")), v(1))),
        ("not not a", .not(.not(p("a")))),
        ("not a and b", .and(.not(p("a")), p("b"))),
        ("not (a or b)", .not(.or(p("a"), p("b")))),
        ("not(a eq 1)", .not(eq(p("a"), v(1)))),
        ("a and not b", .and(p("a"), .not(p("b")))),
        ("a eq 1 and not b eq 2 or c", .or(.and(eq(p("a"), v(1)), eq(.not(p("b")), v(2))), p("c"))),
        ("a eq 1 and not (b eq 2) or c", .or(.and(eq(p("a"), v(1)), .not(eq(p("b"), v(2)))), p("c"))),
        // Precedence as the OData grammar defines it: unary, multiplicative, additive, relational, equality,
        // and, or
        ("b eq not (n gt 5)", eq(p("b"), .not(cmp(.greaterThan, p("n"), v(5))))),
        ("b eq n gt 5", eq(p("b"), cmp(.greaterThan, p("n"), v(5)))),
        ("n gt 5 eq b", eq(cmp(.greaterThan, p("n"), v(5)), p("b"))),
        ("b ne n le 5", cmp(.notEqual, p("b"), cmp(.lessThanOrEqual, p("n"), v(5)))),
        ("a lt b eq c ge d", eq(cmp(.lessThan, p("a"), p("b")), cmp(.greaterThanOrEqual, p("c"), p("d")))),
        ("a eq b ne c", cmp(.notEqual, eq(p("a"), p("b")), p("c"))),
        ("a lt b gt c", cmp(.greaterThan, cmp(.lessThan, p("a"), p("b")), p("c"))),
        ("a eq not b", eq(p("a"), .not(p("b")))),
        ("not a and b eq c", .and(.not(p("a")), eq(p("b"), p("c")))),
        ("n add 1 gt 2 eq b", eq(cmp(.greaterThan, math(.add, p("n"), v(1)), v(2)), p("b"))),
        ("-n mul 2 lt 0", cmp(.lessThan, math(.multiply, .negate(p("n")), v(2)), v(0))),
        ("not startswith(text,'a') eq b", eq(.not(call(.startsWith, p("text"), v("a"))), p("b"))),
        ("((text eq 'MATCH') and (n gt 5))", .and(eq(p("text"), v("MATCH")), cmp(.greaterThan, p("n"), v(5)))),
        ("(((a)))", p("a")),
        ("(1 eq 1)", eq(v(1), v(1))),
        ("(1 eq 0)", eq(v(1), v(0))),
        // Arithmetic and precedence
        ("a add 1 eq 2", eq(math(.add, p("a"), v(1)), v(2))),
        ("a sub 1 eq 2", eq(math(.subtract, p("a"), v(1)), v(2))),
        ("a mul 2 eq 4", eq(math(.multiply, p("a"), v(2)), v(4))),
        ("a div 2 eq 1", eq(math(.divide, p("a"), v(2)), v(1))),
        ("a mod 2 eq 0", eq(math(.modulo, p("a"), v(2)), v(0))),
        ("a add b mul c eq 1", eq(math(.add, p("a"), math(.multiply, p("b"), p("c"))), v(1))),
        ("a mul b add c eq 1", eq(math(.add, math(.multiply, p("a"), p("b")), p("c")), v(1))),
        ("(a add b) mul c eq 1", eq(math(.multiply, math(.add, p("a"), p("b")), p("c")), v(1))),
        ("a sub b sub c eq 1", eq(math(.subtract, math(.subtract, p("a"), p("b")), p("c")), v(1))),
        ("a div b mod c eq 1", eq(math(.modulo, math(.divide, p("a"), p("b")), p("c")), v(1))),
        ("-a eq 1", eq(.negate(p("a")), v(1))),
        ("- a eq 1", eq(.negate(p("a")), v(1))),
        ("-(a add 1) eq 1", eq(.negate(math(.add, p("a"), v(1))), v(1))),
        ("--a eq 1", eq(.negate(.negate(p("a"))), v(1))),
        ("-a mul b eq 1", eq(math(.multiply, .negate(p("a")), p("b")), v(1))),
        ("a sub -1 eq 2", eq(math(.subtract, p("a"), v(-1)), v(2))),
        ("a eq - 5", eq(p("a"), .negate(v(5)))),
        ("a eq -(5)", eq(p("a"), .negate(v(5)))),
        // Number literals
        ("a eq 42", eq(p("a"), v(42))),
        ("a eq 0", eq(p("a"), v(0))),
        ("a eq -42", eq(p("a"), v(-42))),
        ("a eq 42L", eq(p("a"), v(42))),
        ("a eq 42l", eq(p("a"), v(42))),
        ("a eq -9223372036854775808L", eq(p("a"), v(.integer(.min)))),
        ("a eq 9223372036854775807", eq(p("a"), v(.integer(.max)))),
        ("a eq 1.5", eq(p("a"), v(1.5))),
        ("a eq 3.0", eq(p("a"), v(.double(3)))),
        ("a eq -3.25", eq(p("a"), v(-3.25))),
        ("a eq 1.5f", eq(p("a"), v(1.5))),
        ("a eq 1.5F", eq(p("a"), v(1.5))),
        ("a eq 1.5M", eq(p("a"), v(1.5))),
        ("a eq 1.5m", eq(p("a"), v(1.5))),
        ("a eq 2M", eq(p("a"), v(.double(2)))),
        ("a eq 1.5d", eq(p("a"), v(1.5))),
        ("a eq 1e10", eq(p("a"), v(.double(1e10)))),
        ("a eq 1E+10", eq(p("a"), v(.double(1e10)))),
        ("a eq 2.5E-3", eq(p("a"), v(0.0025))),
        ("a eq 0.1", eq(p("a"), v(0.1))),
        // String literals
        ("a eq ''", eq(p("a"), v(""))),
        ("a eq 'it''s'", eq(p("a"), v("it's"))),
        ("a eq ''''", eq(p("a"), v("'"))),
        ("a eq 'a b  c'", eq(p("a"), v("a b  c"))),
        ("a eq 'é 😀 名前'", eq(p("a"), v("é 😀 名前"))),
        ("a eq 'x eq y and z'", eq(p("a"), v("x eq y and z"))),
        ("a eq '\"; DROP TABLE t; --'", eq(p("a"), v("\"; DROP TABLE t; --"))),
        ("a eq '%20'", eq(p("a"), v("%20"))),
        // Date-time and guid literals
        (
            "updatedAt ge datetimeoffset'2000-01-01T00:00:00.000Z'",
            cmp(.greaterThanOrEqual, p("updatedAt"), ts("2000-01-01T00:00:00Z"))
        ),
        ("d eq datetimeoffset'2001-02-03T00:00:00.0000000+00:00'", eq(p("d"), ts("2001-02-03T00:00:00Z"))),
        ("d eq datetimeoffset'2001-02-03T00:00:00.1234567Z'", eq(p("d"), ts("2001-02-03T00:00:00.1234567Z"))),
        ("d eq datetimeoffset'2001-02-03T07:00:00+07:00'", eq(p("d"), ts("2001-02-03T00:00:00Z"))),
        ("d eq datetime'2001-04-01T00:00:00Z'", eq(p("d"), ts("2001-04-01T00:00:00Z"))),
        ("d eq datetime'2001-04-01T00:00:00'", eq(p("d"), ts("2001-04-01T00:00:00Z"))),
        ("d eq datetime'2001-04-01T05:06'", eq(p("d"), ts("2001-04-01T05:06:00Z"))),
        ("d eq datetimeoffset'1999-12-03T15:44:29.000Z'", eq(p("d"), ts("1999-12-03T15:44:29Z"))),
        ("id eq guid'E621E1F8-C36C-495A-93FC-0C247A3E6E5F'", eq(p("id"), v("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))),
        // Functions
        ("substringof('x',text)", call(.substringOf, v("x"), p("text"))),
        ("substringof('x', text) eq true", eq(call(.substringOf, v("x"), p("text")), v(true))),
        ("startswith(text,'Buy')", call(.startsWith, p("text"), v("Buy"))),
        ("endswith(text,'milk')", call(.endsWith, p("text"), v("milk"))),
        ("length(text) gt 3", cmp(.greaterThan, call(.length, p("text")), v(3))),
        ("indexof(text,'a') eq 0", eq(call(.indexOf, p("text"), v("a")), v(0))),
        ("replace(text,'a','b') eq 'b'", eq(call(.replace, p("text"), v("a"), v("b")), v("b"))),
        ("substring(text,1) eq 'x'", eq(call(.substring, p("text"), v(1)), v("x"))),
        ("substring(text,1,2) eq 'x'", eq(call(.substring, p("text"), v(1), v(2)), v("x"))),
        ("tolower(text) eq 'a'", eq(call(.toLower, p("text")), v("a"))),
        ("toupper(text) eq 'A'", eq(call(.toUpper, p("text")), v("A"))),
        ("trim(text) eq 'a'", eq(call(.trim, p("text")), v("a"))),
        ("concat(a,b) eq 'ab'", eq(call(.concat, p("a"), p("b")), v("ab"))),
        ("concat(concat(a,' '),b) eq 'a b'", eq(call(.concat, call(.concat, p("a"), v(" ")), p("b")), v("a b"))),
        ("day(d) eq 3", eq(call(.day, p("d")), v(3))),
        ("month(d) eq 2", eq(call(.month, p("d")), v(2))),
        ("year(d) eq 2001", eq(call(.year, p("d")), v(2001))),
        ("hour(d) eq 4", eq(call(.hour, p("d")), v(4))),
        ("minute(d) eq 5", eq(call(.minute, p("d")), v(5))),
        ("second(d) eq 6", eq(call(.second, p("d")), v(6))),
        ("round(n) eq 2", eq(call(.round, p("n")), v(2))),
        ("floor(n) eq 1", eq(call(.floor, p("n")), v(1))),
        ("ceiling(n) eq 2", eq(call(.ceiling, p("n")), v(2))),
        ("round(n add 0.5) eq 2", eq(call(.round, math(.add, p("n"), v(0.5))), v(2))),
        (
            "startswith(tolower(text), 'buy') and not endswith(text,'x')",
            .and(call(.startsWith, call(.toLower, p("text")), v("buy")), .not(call(.endsWith, p("text"), v("x"))))
        ),
        ("length( text ) eq 1", eq(call(.length, p("text")), v(1))),
        // Whitespace
        ("  a   eq\t1  ", eq(p("a"), v(1))),
        ("a eq 1\nand b eq 2", .and(eq(p("a"), v(1)), eq(p("b"), v(2)))),
        ("(a eq 1)and(b eq 2)", .and(eq(p("a"), v(1)), eq(p("b"), v(2)))),
        // A bare property (it may hold a Boolean) or a Boolean literal is a filter
        ("complete", p("complete")),
        ("true", v(true)),
    ]

    @Test(arguments: cases)
    func parsesToTheExpectedTree(text: String, expected: FilterExpression) throws {
        #expect(try FilterExpression(odataFilter: text) == expected)
    }

    @Test func parsesWhatTheDotNetClientEmits() throws {
        let text = "((text eq 'MATCH') and (updatedAt ge datetimeoffset'2000-01-01T00:00:00.0000000+00:00'))"
        let expected: FilterExpression = .and(
            eq(p("text"), v("MATCH")),
            cmp(.greaterThanOrEqual, p("updatedAt"), .timestamp(try Timestamp(iso8601: "2000-01-01T00:00:00Z")))
        )
        #expect(try ODataFilterParser.parse(text) == expected)
    }
}
