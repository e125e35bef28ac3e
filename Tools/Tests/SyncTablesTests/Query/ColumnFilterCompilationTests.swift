import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// The typed builder compiles to the one `FilterExpression` tree that stores, OData and purge share.
@Suite("Column filters compile to FilterExpression")
struct ColumnFilterCompilationTests {
    @Test func comparisonsWithSwiftValuesBecomeJSONConstants() {
        #expect(
            (Column("text") == "milk").expression == .comparison(.equal, .property("text"), .value(.string("milk")))
        )
        #expect((Column("n") != 2).expression == .comparison(.notEqual, .property("n"), .value(.integer(2))))
        #expect((Column("n") < 2.5).expression == .comparison(.lessThan, .property("n"), .value(.double(2.5))))
        #expect(
            (Column("done") <= true).expression == .comparison(.lessThanOrEqual, .property("done"), .value(.bool(true)))
        )
        #expect((Column("n") > Int64(3)).expression == .comparison(.greaterThan, .property("n"), .value(.integer(3))))
        #expect(
            (Column("v") >= JSONValue.null).expression
                == .comparison(.greaterThanOrEqual, .property("v"), .value(.null))
        )
    }

    @Test func datesBecomeTimestampsAtMillisecondPrecision() {
        let date = Date(timeIntervalSince1970: 1_700_000_000.123_4)

        let filter = Column("due") < date

        #expect(
            filter.expression
                == .comparison(.lessThan, .property("due"), .timestamp(Timestamp(ticks: 17_000_000_001_230_000))))
    }

    @Test func datesRoundToTheNearestMillisecondLikeTheEncoder() {
        let later = Date(timeIntervalSince1970: 1_700_000_000.123_6)
        let beforeEpoch = Date(timeIntervalSince1970: -0.000_6)

        #expect(
            (Column("due") == later).expression
                == .comparison(.equal, .property("due"), .timestamp(Timestamp(ticks: 17_000_000_001_240_000))))
        #expect(
            (Column("due") == beforeEpoch).expression
                == .comparison(.equal, .property("due"), .timestamp(Timestamp(ticks: -10_000))))
    }

    @Test func nilComparisonsTestForNull() {
        #expect((Column("due") == nil).expression == .comparison(.equal, .property("due"), .value(.null)))
        #expect((Column("due") != nil).expression == .comparison(.notEqual, .property("due"), .value(.null)))
        let none: String? = nil
        #expect((Column("due") == none).expression == .comparison(.equal, .property("due"), .value(.null)))
    }

    @Test func columnsCompareWithColumns() {
        #expect((Column("a") < Column("b")).expression == .comparison(.lessThan, .property("a"), .property("b")))
    }

    @Test func logicalOperatorsBuildAndOrNot() {
        let a = Column("a") == 1
        let b = Column("b") == 2

        #expect((a && b).expression == .and(a.expression, b.expression))
        #expect((a || b).expression == .or(a.expression, b.expression))
        #expect((!a).expression == .not(a.expression))
    }

    @Test func stringFunctionsUseODataArgumentOrder() {
        #expect(
            Column("t").hasPrefix("Buy").expression == .function(.startsWith, [.property("t"), .value(.string("Buy"))])
        )
        #expect(
            Column("t").hasSuffix("!").expression == .function(.endsWith, [.property("t"), .value(.string("!"))])
        )
        #expect(
            Column("t").contains("ilk").expression == .function(.substringOf, [.value(.string("ilk")), .property("t")])
        )
    }

    @Test func caseFunctionsReturnComparableOperands() {
        let filter = Column("t").lowercased() == "milk"
        let upper = Column("t").uppercased().hasPrefix("M")

        #expect(
            filter.expression == .comparison(.equal, .function(.toLower, [.property("t")]), .value(.string("milk"))))
        #expect(
            upper.expression == .function(.startsWith, [.function(.toUpper, [.property("t")]), .value(.string("M"))]))
    }

    @Test func inListsBecomeMembership() {
        #expect(
            Column("s").in(["a", "b"]).expression
                == .isIn(.property("s"), [.value(.string("a")), .value(.string("b"))])
        )
        #expect(Column("s").in([Int]()).expression == .isIn(.property("s"), []))
    }

    @Test func sortKeysCarryTheirDirection() {
        #expect(Column("a").descending == SortDescriptor("a", ascending: false))
        #expect(Column("a").ascending == SortDescriptor("a", ascending: true))
        #expect(Column("a").sortDescriptor == SortDescriptor("a"))
    }
}
