import Testing

@_spi(SyncTablesTools) @testable import SyncTablesCore

@Suite("OData $filter chains")
struct ODataFilterChainTests {
    /// `id eq 'id0' or id eq 'id1' or …`, as a client writes a list of ids.
    private static func idAlternatives(_ count: Int, joinedBy keyword: String) -> String {
        (0..<count).map { "id eq 'id\($0)'" }.joined(separator: " \(keyword) ")
    }

    /// Room for long texts, as the server allows.
    private static let longText = ODataLimits(maximumLength: 64 * 1024)

    @Test(arguments: ["or", "and"])
    func aFlatChainOf500TermsParsesIntoALeftLeaningTree(keyword: String) throws {
        let parsed = try FilterExpression(
            odataFilter: Self.idAlternatives(500, joinedBy: keyword), limits: Self.longText)

        var terms: [FilterExpression] = []
        var rest = parsed
        while true {
            switch (rest, keyword) {
            case (.or(let lhs, let rhs), "or"), (.and(let lhs, let rhs), "and"):
                terms.append(rhs)
                rest = lhs
                continue
            default:
                terms.append(rest)
            }
            break
        }
        #expect(terms.count == 500)
        #expect(terms.last == .comparison(.equal, .property("id"), .value("id0")))
        #expect(terms.first == .comparison(.equal, .property("id"), .value("id499")))
    }

    @Test func chainsOfAndInsideAChainOfOrCountOneLevelEach() throws {
        // A comparison is two levels deep, the and chain one more, the or chain one more.
        let groups = (0..<200).map { "a eq \($0) and b eq \($0) and c eq \($0)" }
        let limits = ODataLimits(maximumLength: 64 * 1024, maximumDepth: 4)
        let parsed = try FilterExpression(odataFilter: groups.joined(separator: " or "), limits: limits)
        guard case .or = parsed else {
            Issue.record("expected an or at the top, got \(parsed)")
            return
        }
        #expect(throws: ODataError.self) {
            try FilterExpression(
                odataFilter: groups.joined(separator: " or "),
                limits: ODataLimits(maximumLength: 64 * 1024, maximumDepth: 3))
        }
    }

    @Test func aChainLongerThanTheTextLimitIsRefusedForItsLength() {
        let text = Self.idAlternatives(1000, joinedBy: "or")
        #expect(throws: ODataError.tooLong(length: text.utf8.count, limit: 8192)) {
            try FilterExpression(odataFilter: text)
        }
    }

    @Test func aChainIsRefusedWhenAnOperandReachesTheDepthLimit() {
        let deepest = (0..<64).map { "a\($0)" }.joined(separator: " eq ")  // 63 comparisons: depth 64
        #expect(throws: ODataError.tooDeep(position: 2, limit: 64)) {
            try FilterExpression(odataFilter: "b or " + deepest)
        }
    }

    @Test func nestingThroughParenthesesStillCountsEachLevel() {
        let text = String(repeating: "(a or ", count: 70) + "a" + String(repeating: ")", count: 70)
        #expect {
            try FilterExpression(odataFilter: text)
        } throws: { error in
            guard case ODataError.tooDeep(_, let limit) = error else { return false }
            return limit == 64
        }
    }
}
