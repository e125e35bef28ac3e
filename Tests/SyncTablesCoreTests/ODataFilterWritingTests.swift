import Testing

@_spi(SyncTablesTools) @testable import SyncTablesCore

@Suite("OData $filter writing")
struct ODataFilterWritingTests {
    @Test func parenthesizesEveryBinaryNodeLikeClientLibraries() throws {
        let filter: FilterExpression = .and(
            .comparison(.equal, .property("text"), .value("MATCH")),
            .comparison(
                .greaterThanOrEqual, .property("updatedAt"), .timestamp(try Timestamp(iso8601: "2000-01-01T00:00:00Z")))
        )
        #expect(
            try filter.odataText == "((text eq 'MATCH') and (updatedAt ge datetimeoffset'2000-01-01T00:00:00.000Z'))")
    }

    @Test func doublesQuotesInStrings() throws {
        let filter = FilterExpression.comparison(.equal, .property("a"), .value("it's ''"))
        #expect(try filter.odataText == "(a eq 'it''s ''''')")
    }

    @Test func writesTimestampsWithFullPrecision() throws {
        let filter = FilterExpression.comparison(.lessThan, .property("d"), .timestamp(Timestamp(ticks: 1)))
        #expect(try filter.odataText == "(d lt datetimeoffset'1970-01-01T00:00:00.0000001Z')")
    }

    @Test func writesNumbersSoTheirTypeSurvives() throws {
        func text(_ value: JSONValue) throws -> String { try ODataFilterWriter.text(for: .value(value)) }
        #expect(try text(42) == "42")
        #expect(try text(-42) == "-42")
        #expect(try text(.double(3)) == "3.0")
        #expect(try text(1e20) == "1E+20")
        #expect(try text(2.5e-7) == "2.5E-07")
        #expect(try text(.integer(.min)) == "-9223372036854775808")
        #expect(try text(nil) == "null")
        #expect(try text(true) == "true")
    }

    @Test func writesContainsAsSubstringOf() throws {
        let filter = FilterExpression.function(.substringOf, [.value("x"), .property("text")])
        #expect(try filter.odataText == "substringof('x',text)")
    }

    @Test func writesNotAndNegation() throws {
        #expect(try FilterExpression.not(.property("done")).odataText == "(not done)")
        let negated = FilterExpression.comparison(.equal, .negate(.value(5)), .property("a"))
        #expect(try negated.odataText == "((-(5)) eq a)")
        #expect(try FilterExpression(odataFilter: negated.odataText) == negated)
    }

    @Test func writesMembershipAsABalancedOrOfEquals() throws {
        let filter = FilterExpression.isIn(.property("id"), [.value("a"), .value("b"), .value("c")])
        #expect(try filter.odataText == "((id eq 'a') or ((id eq 'b') or (id eq 'c')))")
    }

    @Test func writesMembershipInOneValueAsEquals() throws {
        #expect(try FilterExpression.isIn(.property("id"), [.value("a")]).odataText == "(id eq 'a')")
    }

    @Test func writesEmptyMembershipAsAlwaysFalse() throws {
        #expect(try FilterExpression.isIn(.property("id"), []).odataText == "(1 eq 0)")
    }

    @Test func longMembershipListsStayWithinTheParsersDepthLimit() throws {
        let candidates = (0..<2000).map { FilterExpression.value(.string("id-\($0)")) }
        let text = try FilterExpression.isIn(.property("id"), candidates).odataText
        let limits = ODataLimits(maximumLength: 100_000)
        let parsed = try FilterExpression(odataFilter: text, limits: limits)
        #expect(try parsed.odataText == text)
    }

    @Test(arguments: ["a b", "a'b", "1a", "", "a-b", "a/b", "é", "and", "eq", "null", "true", "x) or (1 eq 1"])
    func rejectsPropertyNamesThatAreNotIdentifiers(name: String) {
        let filter = FilterExpression.comparison(.equal, .property(name), .value(1))
        #expect(throws: ODataError.invalidPropertyName(name)) { try filter.odataText }
        #expect(!ODataFilterWriter.isValidPropertyName(name))
    }

    @Test func rejectsValuesWithoutALiteral() {
        #expect(throws: ODataError.unrepresentableValue("an array")) { try ODataFilterWriter.text(for: .value([1])) }
        #expect(throws: ODataError.unrepresentableValue("an object")) {
            try ODataFilterWriter.text(for: .value(["a": 1]))
        }
        #expect(throws: ODataError.unrepresentableValue("nan")) {
            try ODataFilterWriter.text(for: .value(.double(.nan)))
        }
    }

    @Test func rejectsFunctionCallsWithTheWrongArity() {
        #expect(throws: ODataError.wrongArgumentCount(position: 0, function: "length", count: 0, expected: "1")) {
            try ODataFilterWriter.text(for: .function(.length, []))
        }
    }

    @Test func injectionInValuesStaysInsideTheString() throws {
        let hostile = "x') or (1 eq 1) or ('"
        let filter = FilterExpression.comparison(.equal, .property("a"), .value(.string(hostile)))
        #expect(try FilterExpression(odataFilter: filter.odataText) == filter)
    }
}

@Suite("OData $orderby")
struct ODataOrderByTests {
    @Test func parsesKeysWithAndWithoutDirections() throws {
        let keys = try ODataOrderBy.parse("a, b desc, c asc")
        #expect(keys == [SortDescriptor("a"), SortDescriptor("b", ascending: false), SortDescriptor("c")])
    }

    @Test func parsesTheFormsClientsEmit() throws {
        #expect(try ODataOrderBy.parse("updatedAt") == [SortDescriptor("updatedAt")])
        #expect(
            try ODataOrderBy.parse("String desc,id") == [
                SortDescriptor("String", ascending: false), SortDescriptor("id"),
            ])
    }

    @Test func writesKeysOmittingAsc() throws {
        #expect(
            try ODataOrderBy.text(for: [SortDescriptor("text", ascending: false), SortDescriptor("id")])
                == "text desc,id")
        #expect(try ODataOrderBy.text(for: [SortDescriptor("updatedAt")]) == "updatedAt")
    }

    @Test func roundTripsThroughText() throws {
        let keys = [
            SortDescriptor("a", ascending: false), SortDescriptor("b"), SortDescriptor("desc", ascending: false),
        ]
        #expect(try ODataOrderBy.parse(ODataOrderBy.text(for: keys)) == keys)
    }

    @Test(arguments: [
        ("", ODataError.empty),
        ("a,", .unexpectedEnd(expected: "a property name")),
        (",a", .unexpectedToken(position: 0, found: "','", expected: "a property name")),
        ("a DESC", .unexpectedToken(position: 2, found: "'DESC'", expected: "'asc', 'desc' or ','")),
        ("a desc b", .unexpectedToken(position: 7, found: "'b'", expected: "'asc', 'desc' or ','")),
        ("a; DROP TABLE t", .unexpectedCharacter(position: 1, character: ";")),
        ("'a'", .unexpectedToken(position: 0, found: "the string 'a'", expected: "a property name")),
        ("a/b", .unexpectedCharacter(position: 1, character: "/")),
    ])
    func rejectsInvalidOrderings(text: String, expected: ODataError) {
        #expect(throws: expected) { try ODataOrderBy.parse(text) }
    }

    @Test func rejectsNamesThatAreNotIdentifiersWhenWriting() {
        #expect(throws: ODataError.invalidPropertyName("a,b")) { try ODataOrderBy.text(for: [SortDescriptor("a,b")]) }
    }
}
