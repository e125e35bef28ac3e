import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Rows every filter case runs against (ids a…f, returned in id order).
let filterRows = """
    [
      {"id":"a","text":"Apple","n":1,"price":1.5,"done":true,"tag":null,"updatedAt":"2000-01-01T00:00:00.000Z"},
      {"id":"b","text":"banana","n":2,"price":2.25,"done":false,"tag":"x","updatedAt":"2000-01-01T00:00:00.000Z"},
      {"id":"c","text":"Cherry pie","n":3,"price":10.0,"done":false,"updatedAt":"2000-01-02T12:30:45.000Z"},
      {"id":"d","text":"it's","n":10,"price":-1.0,"done":true,"tag":"y","updatedAt":"2001-02-03T04:05:06.789Z"},
      {"id":"e","text":"  spaced  ","n":-5,"price":0,"done":false,"tag":"x","updatedAt":"1999-12-31T23:59:59.999Z"},
      {"id":"f","text":"guid","n":0,"tag":"0f8fad5b-d9cb-469f-a165-70867728950e","updatedAt":"2010-06-15T08:00:00.000Z"}
    ]
    """

/// One `$filter` and the ids it must select.
struct FilterCase: Sendable, CustomTestStringConvertible {
    let filter: String
    let ids: String

    init(_ filter: String, _ ids: String) {
        self.filter = filter
        self.ids = ids
    }

    var expected: [String] { ids.split(separator: " ").map(String.init) }
    var testDescription: String { filter }
}

let filterCases: [FilterCase] = [
    // Comparison operators on integers
    FilterCase("n eq 1", "a"),
    FilterCase("n ne 1", "b c d e f"),
    FilterCase("n gt 2", "c d"),
    FilterCase("n ge 2", "b c d"),
    FilterCase("n lt 2", "a e f"),
    FilterCase("n le 2", "a b e f"),
    // Strings compare exactly (case-sensitive, by UTF-8 bytes)
    FilterCase("text eq 'Apple'", "a"),
    FilterCase("text eq 'apple'", ""),
    FilterCase("text gt 'a'", "b d f"),
    FilterCase("id eq 'c'", "c"),
    // Booleans and not
    FilterCase("done eq true", "a d"),
    FilterCase("done eq false", "b c e"),
    FilterCase("not (done eq true)", "b c e f"),
    FilterCase("not(startswith(text, 'A'))", "b c d e f"),
    // Null handling: missing equals null, ne null means present
    FilterCase("tag eq null", "a c"),
    FilterCase("null eq tag", "a c"),
    FilterCase("tag ne null", "b d e f"),
    FilterCase("tag eq 'x'", "b e"),
    FilterCase("tag ne 'x'", "a c d f"),
    FilterCase("price gt 2", "b c"),
    FilterCase("n eq 1 and not (tag eq null)", ""),
    // Logical operators and precedence as OData defines it: not, then gt/ge/lt/le, then eq/ne, then and, then or
    FilterCase("n gt 1 and n lt 10", "b c"),
    FilterCase("n eq 1 or n eq 10", "a d"),
    FilterCase("n eq 1 or n eq 2 and done eq true", "a"),
    FilterCase("(n eq 1 or n eq 2) and done eq true", "a"),
    FilterCase("n eq 2 and done eq false or n eq 10", "b d"),
    FilterCase("not (n eq 1)", "b c d e f"),
    FilterCase("done eq not (n gt 5)", "a"),
    FilterCase("done eq n gt 5", "b c d e"),
    FilterCase("n gt 5 eq done", "b c d e"),
    FilterCase("not done eq false", "a d"),
    FilterCase("n eq 3 and price eq 10 and done eq false", "c"),
    FilterCase("((text eq 'banana') and (updatedAt ge datetimeoffset'2000-01-01T00:00:00.000Z'))", "b"),
    FilterCase("(1 eq 1)", "a b c d e f"),
    FilterCase("(1 eq 0)", ""),
    // Arithmetic and its precedence
    FilterCase("n add 1 eq 2", "a"),
    FilterCase("n sub 1 eq 0", "a"),
    FilterCase("n mul 2 eq 20", "d"),
    FilterCase("n div 2 eq 5", "d"),
    FilterCase("n mod 3 eq 1", "a d"),
    FilterCase("n add 2 mul 3 eq 7", "a"),
    FilterCase("(n add 2) mul 3 eq 9", "a"),
    FilterCase("-n eq 5", "e"),
    FilterCase("n eq -5", "e"),
    // Number literal forms; integers and doubles compare numerically
    FilterCase("price eq 1.5", "a"),
    FilterCase("price eq 10", "c"),
    FilterCase("n eq 10.0", "d"),
    FilterCase("price lt 0", "d"),
    FilterCase("n eq 1L", "a"),
    FilterCase("price eq 1.5f", "a"),
    FilterCase("price eq 2.25M", "b"),
    FilterCase("price eq 1.5E0", "a"),
    // String functions
    FilterCase("startswith(text, 'App')", "a"),
    FilterCase("endswith(text, 'pie')", "c"),
    FilterCase("substringof('an', text)", "b"),
    FilterCase("substringof('pie', tolower(text)) or n lt 0", "c e"),
    FilterCase("length(text) eq 4", "d f"),
    FilterCase("length(tag) eq 1", "b d e"),
    FilterCase("indexof(text, 'e') eq 4", "a"),
    FilterCase("tolower(text) eq 'apple'", "a"),
    FilterCase("toupper(text) eq 'BANANA'", "b"),
    FilterCase("tolower(tag) eq 'x'", "b e"),
    FilterCase("trim(text) eq 'spaced'", "e"),
    FilterCase("concat(text, 'X') eq 'AppleX'", "a"),
    FilterCase("concat(concat(text, ' '), tag) eq 'banana x'", "b"),
    FilterCase("replace(text, 'a', 'o') eq 'bonono'", "b"),
    FilterCase("substring(text, 1) eq 'pple'", "a"),
    FilterCase("substring(text, 1, 2) eq 'an'", "b"),
    // Escaped quotes in string literals
    FilterCase("text eq 'it''s'", "d"),
    FilterCase("substringof('''', text)", "d"),
    // Date functions
    FilterCase("year(updatedAt) eq 2001", "d"),
    FilterCase("month(updatedAt) eq 12", "e"),
    FilterCase("day(updatedAt) eq 2", "c"),
    FilterCase("hour(updatedAt) eq 12", "c"),
    FilterCase("minute(updatedAt) eq 30", "c"),
    FilterCase("second(updatedAt) eq 45", "c"),
    // Date literals in Z and +00:00 forms, 0/3/7 fractional digits, and other offsets
    FilterCase("updatedAt ge datetimeoffset'2000-01-01T00:00:00.000Z'", "a b c d f"),
    FilterCase("updatedAt ge datetimeoffset'2000-01-01T00:00:00.0000000+00:00'", "a b c d f"),
    FilterCase("updatedAt gt datetimeoffset'2000-01-01T00:00:00Z'", "c d f"),
    FilterCase("updatedAt eq datetime'2000-01-01T00:00:00Z'", "a b"),
    FilterCase("updatedAt lt datetimeoffset'2000-01-01T01:00:00+01:00'", "e"),
    FilterCase("updatedAt le datetimeoffset'1999-12-31T23:59:59.999Z'", "e"),
    FilterCase("updatedAt gt datetimeoffset'2001-02-03T04:05:06.7889999Z'", "d f"),
    // Rounding functions
    FilterCase("round(price) eq 2", "a b"),
    FilterCase("floor(price) eq 1", "a"),
    FilterCase("ceiling(price) eq 3", "b"),
    // guid literals compare as strings
    FilterCase("tag eq guid'0f8fad5b-d9cb-469f-a165-70867728950e'", "f"),
]

let invalidFilters: [String] = [
    "n eq", "eq 1", "(n eq 1", "n eq 1)", "n === 1", "foo(n) eq 1", "startswith(text)", "text eq 'unterminated",
    "n eq 99999999999999999999999", "updatedAt ge datetime'not-a-date'", "n eq 1 and", "and", "n eq 1 or or n eq 2",
    "n eq 1; DROP TABLE items", "n eq \"x\"", "n EQ 1", "text eq 'a' &", "n eq 1 n eq 2", "()", ",",
    // Not Boolean: a filter, and each operand of and, or and not, must be able to be true
    "1", "'x'", "null", "n add 1", "length(text)", "n eq 1 and 2", "not 5", "-n",
    String(repeating: "(", count: 200) + "n eq 1" + String(repeating: ")", count: 200),
    "text eq '" + String(repeating: "x", count: 70_000) + "'",
]

@Suite("$filter over HTTP")
struct FilterTests {
    @Test(arguments: filterCases)
    func filterCasesSelectExactlyTheExpectedRows(testCase: FilterCase) async throws {
        try await ServerHarness.with { server in
            let seeded = try await server.send(.post, "/__test/seed/items", json: filterRows)
            try #require(seeded.status == 201, "\(seeded.text)")
            let response = try await server.send(.get, "/tables/items?$filter=\(testCase.filter.queryEncoded)")
            try #require(response.status == 200, "\(response.text)")
            #expect(try response.ids() == testCase.expected)
        }
    }

    @Test func theTableHasAtLeast60FilterCases() {
        #expect(filterCases.count >= 60)
    }

    @Test(arguments: invalidFilters)
    func invalidFiltersGet400WithAMessageSayingWhatIsWrong(filter: String) async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.get, "/tables/items?$filter=\(filter.queryEncoded)")
            #expect(response.status == 400)
            let message = try #require(try response.errorMessage())
            #expect(message.hasPrefix("Invalid"))
        }
    }

    @Test func aFlatChainOf500IdAlternativesSelectsExactlyThoseRows() async throws {
        try await ServerHarness.with { server in
            let ids = (0..<600).map { String(format: "%08x-0000-4000-8000-%012x", $0, $0 * 7919) }
            let rows = ids.map { #"{"id":"\#($0)"}"# }.joined(separator: ",")
            let seeded = try await server.send(.post, "/__test/seed/items", json: "[\(rows)]")
            try #require(seeded.status == 201, "\(seeded.text)")
            let wanted = Array(ids.prefix(500))
            let filter = wanted.map { "id eq '\($0)'" }.joined(separator: " or ")
            let response = try await server.send(.get, "/tables/items?$filter=\(filter.queryEncoded)&$top=1000")
            try #require(response.status == 200, "\(response.text)")
            #expect(try Set(response.ids()) == Set(wanted.prefix(50)))
            let count = try await server.send(
                .get, "/tables/items?$filter=\(filter.queryEncoded)&$top=0&$inlinecount=allpages")
            #expect(try count.object()["count"] == .integer(500))
        }
    }

    @Test func aPlusInTheQueryStringIsASpaceSoCurlDataUrlencodeFiltersWork() async throws {
        try await ServerHarness.with { server in
            _ = try await server.send(.post, "/__test/seed/items", json: filterRows)
            let response = try await server.send(.get, "/tables/items?$filter=text+eq+'banana'")
            #expect(try response.ids() == ["b"])
        }
    }

    @Test func aRawPlusInADateOffsetReadsAsASpaceAndIsRefused() async throws {
        try await ServerHarness.with { server in
            _ = try await server.send(.post, "/__test/seed/items", json: filterRows)
            let raw = try await server.send(
                .get, "/tables/items?$filter=updatedAt%20ge%20datetimeoffset'2000-01-01T00:00:00+00:00'")
            #expect(raw.status == 400)
            let encoded = try await server.send(
                .get, "/tables/items?$filter=updatedAt%20ge%20datetimeoffset'2000-01-01T00:00:00%2B00:00'")
            #expect(try encoded.ids() == ["a", "b", "c", "d", "f"])
        }
    }

    @Test func theDotNetIncrementalPullQueryWorksAsSent() async throws {
        try await ServerHarness.with { server in
            _ = try await server.send(.post, "/__test/seed/items", json: filterRows)
            let query =
                "$filter=(updatedAt ge datetimeoffset'2000-01-01T00:00:00.0000000%2B00:00')&$orderby=updatedAt&$skip=0&$top=50&__includeDeleted=true"
                .replacingOccurrences(of: " ", with: "%20")
            let response = try await server.send(.get, "/tables/items?\(query)")
            #expect(try response.ids() == ["a", "b", "c", "d", "f"])
        }
    }

    @Test func theIOSIncrementalPullQueryWorksAsSent() async throws {
        try await ServerHarness.with { server in
            _ = try await server.send(.post, "/__test/seed/items", json: filterRows)
            let query =
                "$filter=(updatedAt%20ge%20datetimeoffset'2000-01-01T00%3A00%3A00.000Z')&$orderby=updatedAt%20asc&$skip=0&$top=50&__includeDeleted=true"
            let response = try await server.send(.get, "/tables/items?\(query)")
            #expect(try response.ids() == ["a", "b", "c", "d", "f"])
        }
    }

    @Test func propertyNamesAndValuesThatLookLikeSQLAreJustData() async throws {
        try await ServerHarness.with { server in
            try await server.insert(
                "items", #"{"id":"x","weird; DROP TABLE items":"v","text":"'; DROP TABLE items; --"}"#)
            let response = try await server.send(
                .get,
                "/tables/items?$filter=\("text eq '''; DROP TABLE items; --'".queryEncoded)"
            )
            #expect(try response.ids() == ["x"])
            #expect(try await server.send(.get, "/tables/items").ids() == ["x"])
        }
    }
}
