import Testing

@_spi(SyncTablesTools) @testable import SyncTablesCore

@Suite struct SentenceTests {
    @Test("a doubled period is written once; an ellipsis and single periods stay")
    func doubledPeriodsAreWrittenOnce() {
        #expect("The store failed: Disk full..".withoutDoubledPeriods == "The store failed: Disk full.")
        #expect("Unreachable: no route.. Try again.".withoutDoubledPeriods == "Unreachable: no route. Try again.")
        #expect("Wait...".withoutDoubledPeriods == "Wait...")
        #expect("v1.2.3 ok.".withoutDoubledPeriods == "v1.2.3 ok.")
    }
}
