import SyncTablesCore
import Testing

@Test func epochIsZeroTicks() {
    #expect(Timestamp.epoch.ticks == 0)
    #expect(Timestamp(ticks: 1) > Timestamp.epoch)
}
