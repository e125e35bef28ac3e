import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("Retry policy and failure classes")
struct RetryPolicyTests {
    @Test func theCeilingDoublesFromTheBaseUpToTheMaximum() {
        let policy = RetryPolicy(baseDelay: .seconds(1), maximumDelay: .seconds(10), maxAttempts: 5)
        let ceilings = (1...6).map { policy.ceiling(afterFailures: $0) }
        #expect(ceilings == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(10), .seconds(10)])
    }

    @Test func fullJitterPicksUniformlyBetweenZeroAndTheCeiling() {
        let policy = RetryPolicy(baseDelay: .seconds(2), maximumDelay: .seconds(60))
        #expect(policy.delay(afterFailures: 3, unit: 0) == .zero)
        #expect(policy.delay(afterFailures: 3, unit: 0.5) == .seconds(4))
        #expect(policy.delay(afterFailures: 3, unit: 0.999).timeInterval < 8)
        #expect(policy.delay(afterFailures: 100, unit: 0.5) == .seconds(30))
    }

    @Test func statusesAreClassifiedAsTheEngineDocuments() {
        for status in [408, 429, 500, 502, 503, 504, 599] { #expect(FailureClass(status: status) == .transient) }
        #expect(FailureClass(status: nil) == .transient)
        for status in [400, 403, 404, 405, 410, 413, 422] { #expect(FailureClass(status: status) == .permanent) }
        #expect(FailureClass(status: 409) == .conflict)
        #expect(FailureClass(status: 412) == .conflict)
        #expect(FailureClass(status: 401) == .authentication)
    }

    @Test func theManualClockWakesSleepersOnlyWhenTheirTimeComes() async throws {
        let clock = ManualSyncClock()
        let start = clock.now()
        let woke = StopFlag()
        let sleeper = Task {
            try await clock.sleep(until: start.addingTimeInterval(10))
            woke.set()
        }
        try await eventually("the engine waits on the clock") { clock.sleeperCount > 0 }
        clock.advance(by: .seconds(9))
        #expect(!woke.isSet)
        clock.advance(by: .seconds(1))
        try await sleeper.value
        #expect(woke.isSet)
    }
}
