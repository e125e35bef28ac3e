import Testing

@_spi(SyncTablesTools) @testable import SyncTablesCore

@Suite("Sentences") struct SentenceTests {
    @Test func aDoubledPeriodIsWrittenOnceAnEllipsisAndSinglePeriodsStay() {
        #expect("The store failed: Disk full..".withoutDoubledPeriods == "The store failed: Disk full.")
        #expect("Unreachable: no route.. Try again.".withoutDoubledPeriods == "Unreachable: no route. Try again.")
        #expect("Wait...".withoutDoubledPeriods == "Wait...")
        #expect("v1.2.3 ok.".withoutDoubledPeriods == "v1.2.3 ok.")
    }
}
