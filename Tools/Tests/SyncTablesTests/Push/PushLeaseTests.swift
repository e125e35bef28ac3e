import Foundation
@_spi(SyncTablesTools) import SyncTablesCore
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// The push lease on a real store file, with a clock the test moves (no waiting).
@Suite("Push lease")
struct PushLeaseTests {
    private static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// A store with the system tables, and two owners' leases of 30 seconds on one clock.
    private static func withLeases(
        _ body: (any LocalStore, PushLease, PushLease, ManualClock) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        let context = try await SyncContext(store: try SQLiteStore(path: directory.newDatabasePath()))
        let clock = ManualClock(start)
        let app = PushLease(owner: "app", duration: .seconds(30), clock: clock.now)
        let script = PushLease(owner: "script", duration: .seconds(30), clock: clock.now)
        try await body(context.store, app, script, clock)
        try await context.close()
    }

    @Test func aSecondPusherIsRefusedWithTheHoldersNameWhileTheLeaseLasts() async throws {
        try await Self.withLeases { store, app, script, clock in
            try await store.write { try app.take(in: $0) }
            clock.advance(by: 29)

            await #expect(throws: SyncError.pushInProgress(owner: "app")) {
                try await store.write { try script.take(in: $0) }
            }
            #expect(try await store.write { try PushLease.holder(in: $0)?.owner } == "app")
        }
    }

    @Test func anExpiredLeaseOfAKilledOwnerIsTakenOver() async throws {
        try await Self.withLeases { store, app, script, clock in
            try await store.write { try app.take(in: $0) }
            clock.advance(by: 31)

            try await store.write { try script.take(in: $0) }

            #expect(try await store.write { try PushLease.holder(in: $0)?.owner } == "script")
            await #expect(throws: SyncError.pushInProgress(owner: "script")) {
                try await store.write { try app.take(in: $0) }
            }
        }
    }

    @Test func takingTheLeaseAgainRenewsItSoItLastsFromTheLastRenewal() async throws {
        try await Self.withLeases { store, app, script, clock in
            try await store.write { try app.take(in: $0) }
            clock.advance(by: 20)
            try await store.write { try app.take(in: $0) }
            clock.advance(by: 20)

            await #expect(throws: SyncError.pushInProgress(owner: "app")) {
                try await store.write { try script.take(in: $0) }
            }
            clock.advance(by: 11)
            try await store.write { try script.take(in: $0) }
        }
    }

    @Test func aReleasedLeaseIsFreeAtOnceReleasingAnotherOwnersLeaseChangesNothing() async throws {
        try await Self.withLeases { store, app, script, _ in
            try await store.write { try app.take(in: $0) }
            try await store.write { try script.release(in: $0) }
            #expect(try await store.write { try PushLease.holder(in: $0)?.owner } == "app")

            try await store.write { try app.release(in: $0) }
            try await store.write { try script.take(in: $0) }

            #expect(try await store.write { try PushLease.holder(in: $0)?.owner } == "script")
        }
    }
}

/// A clock that only moves when told to.
final class ManualClock: Sendable {
    private let current: LockedState<Date>

    init(_ start: Date) {
        current = LockedState(start)
    }

    /// The time now, as a `@Sendable` function for the code under test.
    var now: @Sendable () -> Date {
        { [current] in current.withLock { $0 } }
    }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0.addTimeInterval(seconds) }
    }
}
