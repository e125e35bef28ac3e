import SyncTables

/// One filter and the fixture rows it must select.
struct FilterCase: Sendable {
    let name: String
    let filter: FilterExpression
    let expected: [String]
}

/// The table-driven filter cases: every operator, function, null case and type mix, with expected ids
/// worked out by hand from ``FilterFixture``.
enum FilterCases {
    static var all: [FilterCase] { comparisons + logic + strings + numbers + membership + dates }

    private static func c(_ name: String, _ filter: FilterExpression, _ expected: [String]) -> FilterCase {
        FilterCase(name: name, filter: filter, expected: expected)
    }

    static let comparisons: [FilterCase] = [
        c("n eq 2 matches integer 2 and double 2.0", F.eq(F.p("n"), F.i(2)), ["b", "f"]),
        c("n eq 2.0 matches both numbers", F.eq(F.p("n"), F.d(2.0)), ["b", "f"]),
        c("n eq '2' matches only the string", F.eq(F.p("n"), F.s("2")), ["g"]),
        c("n ne 2 includes nulls and other types", F.ne(F.p("n"), F.i(2)), ["a", "c", "d", "e", "g", "h", "i", "j"]),
        c("n lt 2", F.lt(F.p("n"), F.i(2)), ["a", "d", "e"]),
        c("n le 2", F.le(F.p("n"), F.i(2)), ["a", "b", "d", "e", "f"]),
        c("n gt 3 includes text (text sorts after numbers)", F.gt(F.p("n"), F.i(3)), ["c", "g", "i"]),
        c("n ge 3", F.ge(F.p("n"), F.i(3)), ["c", "g", "i", "j"]),
        c("n eq null", F.eq(F.p("n"), F.null), ["h"]),
        c("null eq n (reversed operands)", F.eq(F.null, F.p("n")), ["h"]),
        c("n ne null", F.ne(F.p("n"), F.null), ["a", "b", "c", "d", "e", "f", "g", "i", "j"]),
        c("explicit null property eq null", F.eq(F.p("tag"), F.null), FilterFixture.allIDs),
        c("tag ne null matches nothing", F.ne(F.p("tag"), F.null), []),
        c("missing property eq null", F.eq(F.p("nope"), F.null), FilterFixture.allIDs),
        c("missing property lt 1 is false", F.lt(F.p("nope"), F.i(1)), []),
        c("lt null is false", F.lt(F.p("n"), F.null), []),
        c("ge null is false", F.ge(F.p("n"), F.null), []),
        c("done eq true matches true and 1", F.eq(F.p("done"), F.b(true)), ["b", "d", "g"]),
        c("done eq false", F.eq(F.p("done"), F.b(false)), ["a", "c"]),
        c("done ne true", F.ne(F.p("done"), F.b(true)), ["a", "c", "e", "f", "h", "i", "j"]),
        c("n eq true compares as 1", F.eq(F.p("n"), F.b(true)), ["a"]),
        c("text eq is case-sensitive", F.eq(F.p("text"), F.s("buy milk")), []),
        c("text eq exact", F.eq(F.p("text"), F.s("Buy milk")), ["a"]),
        c("text with quotes", F.eq(F.p("text"), F.s("O'Reilly \"quoted\"")), ["e"]),
        c("text lt 'a' compares UTF-8 bytes", F.lt(F.p("text"), F.s("a")), ["a", "d", "e", "f", "i"]),
        c("text gt 'b' compares UTF-8 bytes", F.gt(F.p("text"), F.s("b")), ["b", "c", "g", "j"]),
        c("text gt a number: every string", F.gt(F.p("text"), F.i(5)), ["a", "b", "c", "d", "e", "f", "g", "i", "j"]),
        c(
            "n lt a string: every number and the smaller string", F.lt(F.p("n"), F.s("a")),
            ["a", "b", "c", "d", "e", "f", "g", "i", "j"]),
        c("price gt 0", F.gt(F.p("price"), F.i(0)), ["a", "b", "i"]),
        c("price ge 0", F.ge(F.p("price"), F.i(0)), ["a", "b", "e", "i"]),
        c("price lt 0", F.lt(F.p("price"), F.d(0)), ["c"]),
        c("price eq 3 matches 3.0", F.eq(F.p("price"), F.i(3)), ["b"]),
        c("property lt property", F.lt(F.p("n"), F.p("price")), ["a", "b", "e", "i"]),
        c("property eq property (null is null)", F.eq(F.p("n"), F.p("price")), ["h"]),
        c("id gt 'h'", F.gt(F.p("id"), F.s("h")), ["i", "j"]),
        c("id eq a number never matches", F.eq(F.p("id"), F.i(1)), []),
        c("id gt a number: every id", F.gt(F.p("id"), F.i(1)), FilterFixture.allIDs),
        c("object property eq its canonical JSON", F.eq(F.p("meta"), F.s("{\"k\":1}")), ["b"]),
        c("array property eq its canonical JSON", F.eq(F.p("list"), F.s("[1,2]")), ["d"]),
    ]

    static let logic: [FilterCase] = [
        c("not (n lt 2)", .not(F.lt(F.p("n"), F.i(2))), ["b", "c", "f", "g", "h", "i", "j"]),
        c("bare boolean property", F.p("done"), ["b", "d", "g"]),
        c("not bare boolean property", .not(F.p("done")), ["a", "c", "e", "f", "h", "i", "j"]),
        c("and", .and(F.gt(F.p("n"), F.i(0)), F.eq(F.p("done"), F.b(true))), ["b", "g"]),
        c("or", .or(F.eq(F.p("n"), F.i(1)), F.eq(F.p("text"), F.s("ABC"))), ["a", "i"]),
        c(
            "not of or with null test", .not(.or(F.eq(F.p("n"), F.null), F.eq(F.p("done"), F.b(true)))),
            ["a", "c", "e", "f", "i", "j"]),
        c("not of a null comparison is true", .not(F.gt(F.p("price"), F.i(0))), ["c", "d", "e", "f", "g", "h", "j"]),
        c("constant true", F.b(true), FilterFixture.allIDs),
        c("constant false", F.b(false), []),
        c(
            "comparison result compared with false", F.eq(F.gt(F.p("price"), F.i(0)), F.b(false)),
            ["c", "d", "e", "f", "g", "h", "j"]),
    ]

    static let strings: [FilterCase] = [
        c("startswith", F.fn(.startsWith, F.p("text"), F.s("Buy")), ["a"]),
        c("startswith is case-sensitive", F.fn(.startsWith, F.p("text"), F.s("buy")), ["b"]),
        c("startswith tolower", F.fn(.startsWith, F.fn(.toLower, F.p("text")), F.s("buy")), ["a", "b"]),
        c("endswith with precomposed accent", F.fn(.endsWith, F.p("text"), F.s("caf\u{E9}")), ["c"]),
        c("endswith does not match a decomposed accent", F.fn(.endsWith, F.p("text"), F.s("cafe\u{301}")), []),
        c("substringof", F.fn(.substringOf, F.s("milk"), F.p("text")), ["a"]),
        c(
            "substringof empty matches every string", F.fn(.substringOf, F.s(""), F.p("text")),
            ["a", "b", "c", "d", "e", "f", "g", "i", "j"]),
        c("substringof a double quote", F.fn(.substringOf, F.s("\""), F.p("text")), ["e"]),
        c("substringof a single quote", F.fn(.substringOf, F.s("'"), F.p("text")), ["e"]),
        c("startswith on a number is false", F.fn(.startsWith, F.p("n"), F.s("1")), []),
        c(
            "not startswith", .not(F.fn(.startsWith, F.p("text"), F.s("B"))),
            ["b", "c", "d", "e", "f", "g", "h", "i", "j"]),
        c("length eq 0", F.eq(F.fn(.length, F.p("text")), F.i(0)), ["d"]),
        c("length counts scalars (ß)", F.eq(F.fn(.length, F.p("text")), F.i(6)), ["g"]),
        c("length counts scalars (emoji)", F.eq(F.fn(.length, F.p("text")), F.i(9)), ["b", "j"]),
        c("indexof", F.eq(F.fn(.indexOf, F.p("text"), F.s("milk")), F.i(4)), ["a"]),
        c("indexof after an emoji", F.eq(F.fn(.indexOf, F.p("text"), F.s("x")), F.i(8)), ["j"]),
        c(
            "indexof absent is -1", F.eq(F.fn(.indexOf, F.p("text"), F.s("zzz")), F.i(-1)),
            ["a", "b", "c", "d", "e", "f", "g", "i", "j"]),
        c("tolower", F.eq(F.fn(.toLower, F.p("text")), F.s("abc")), ["i"]),
        c("toupper of ß", F.eq(F.fn(.toUpper, F.p("text")), F.s("STRASSE")), ["g"]),
        c("toupper of accents", F.eq(F.fn(.toUpper, F.p("text")), F.s("\u{C9}CLAIR CAF\u{C9}")), ["c"]),
        c("trim", F.eq(F.fn(.trim, F.p("text")), F.s("padded")), ["f"]),
        c("concat", F.eq(F.fn(.concat, F.p("text"), F.s("!")), F.s("ABC!")), ["i"]),
        c("replace", F.eq(F.fn(.replace, F.p("text"), F.s(" "), F.s("_")), F.s("Buy_milk")), ["a"]),
        c("substring from", F.eq(F.fn(.substring, F.p("text"), F.i(1)), F.s("BC")), ["i"]),
        c("substring from with length", F.eq(F.fn(.substring, F.p("text"), F.i(0), F.i(3)), F.s("Buy")), ["a"]),
        c("substring of an emoji", F.eq(F.fn(.substring, F.p("text"), F.i(6), F.i(1)), F.s("\u{1F600}")), ["j"]),
        c("tolower of null is null", F.eq(F.fn(.toLower, F.p("text")), F.null), ["h"]),
    ]

    static let numbers: [FilterCase] = [
        c("add", F.eq(F.math(.add, F.p("n"), F.i(1)), F.i(3)), ["b", "f"]),
        c("sub", F.eq(F.math(.subtract, F.p("n"), F.i(1)), F.i(0)), ["a"]),
        c("mul", F.eq(F.math(.multiply, F.p("n"), F.i(2)), F.i(20)), ["c"]),
        c("div truncates integers", F.eq(F.math(.divide, F.p("n"), F.i(2)), F.i(1)), ["b", "f", "j"]),
        c("mod", F.eq(F.math(.modulo, F.p("n"), F.i(2)), F.i(1)), ["a", "j"]),
        c("div by zero is null", F.eq(F.math(.divide, F.p("n"), F.i(0)), F.null), FilterFixture.allIDs),
        c("arithmetic on text is null", F.eq(F.math(.add, F.p("text"), F.i(1)), F.null), FilterFixture.allIDs),
        c("negate", F.eq(.negate(F.p("n")), F.i(3)), ["e"]),
        c("round half away from zero", F.eq(F.fn(.round, F.p("price")), F.i(3)), ["a", "b"]),
        c("round negative", F.eq(F.fn(.round, F.p("price")), F.i(-2)), ["c"]),
        c("floor", F.eq(F.fn(.floor, F.p("price")), F.i(-2)), ["c"]),
        c("ceiling", F.eq(F.fn(.ceiling, F.p("price")), F.i(3)), ["a", "b"]),
    ]

    static let membership: [FilterCase] = [
        c("id in list", .isIn(F.p("id"), [F.s("a"), F.s("c"), F.s("zz")]), ["a", "c"]),
        c("in mixed types", .isIn(F.p("n"), [F.i(1), F.i(10), F.s("2")]), ["a", "c", "g"]),
        c("in null", .isIn(F.p("n"), [F.null]), ["h"]),
        c("in empty list", .isIn(F.p("n"), []), []),
        c("not in", .not(.isIn(F.p("n"), [F.i(2)])), ["a", "c", "d", "e", "g", "h", "i", "j"]),
        c("in double matches integers", .isIn(F.p("n"), [F.d(2.0)]), ["b", "f"]),
        c("in with null and values", .isIn(F.p("n"), [F.null, F.i(3)]), ["h", "j"]),
        c("not in with null", .not(.isIn(F.p("n"), [F.null, F.i(1)])), ["b", "c", "d", "e", "f", "g", "i", "j"]),
    ]

    static let dates: [FilterCase] = [
        c("due eq timestamp", F.eq(F.p("due"), F.t(FilterFixture.tenOClock)), ["a"]),
        c("due gt timestamp (7-digit fraction, +02:00)", F.gt(F.p("due"), F.t(FilterFixture.tenOClock)), ["b"]),
        c("due ge timestamp", F.ge(F.p("due"), F.t(FilterFixture.tenOClock)), ["a", "b"]),
        c("timestamp le due (reversed)", F.le(F.t(FilterFixture.tenOClock), F.p("due")), ["a", "b"]),
        c("due lt timestamp (-01:00 offset)", F.lt(F.p("due"), F.t(FilterFixture.midnight)), ["e"]),
        c(
            "due ne timestamp", F.ne(F.p("due"), F.t(FilterFixture.tenOClock)),
            ["b", "c", "d", "e", "f", "g", "h", "i", "j"]),
        c("due eq 7-digit instant", F.eq(F.p("due"), F.t(FilterFixture.newYear)), ["e"]),
        c("due eq date string with offset", F.eq(F.p("due"), F.s("2024-05-01T12:00:00.0000001+02:00")), ["b"]),
        c("due eq same instant written in UTC", F.eq(F.p("due"), F.s("2024-05-01T10:00:00.0000001Z")), ["b"]),
        c("due eq a non-date string", F.eq(F.p("due"), F.s("not a date")), ["c"]),
        c("text property parsed as a date", F.eq(F.p("note"), F.t(FilterFixture.tenOClock)), ["a"]),
        c("text property compared with text stays text", F.eq(F.p("note"), F.s("2024-05-01T10:00:00.000Z")), []),
        c("non-date text vs timestamp is false", F.lt(F.p("text"), F.t(FilterFixture.tenOClock)), []),
        c("number vs timestamp is false", F.lt(F.p("n"), F.t(FilterFixture.tenOClock)), []),
        c("year", F.eq(F.fn(.year, F.p("due")), F.i(2024)), ["a", "b", "e"]),
        c("month", F.eq(F.fn(.month, F.p("due")), F.i(1)), ["e"]),
        c("day of a text date", F.eq(F.fn(.day, F.p("note")), F.i(1)), ["a"]),
        c("hour", F.eq(F.fn(.hour, F.p("due")), F.i(0)), ["e"]),
        c("minute", F.eq(F.fn(.minute, F.p("due")), F.i(59)), ["e"]),
        c("second", F.eq(F.fn(.second, F.p("due")), F.i(59)), ["e"]),
        c("year of a number is null", F.eq(F.fn(.year, F.p("n")), F.null), FilterFixture.allIDs),
        c(
            "due in instants", .isIn(F.p("due"), [F.s("2024-05-01T10:00:00Z"), F.t(FilterFixture.newYear)]), ["a", "e"]),
    ]
}
