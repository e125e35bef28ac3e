@_spi(SyncTablesTools) import SyncTablesCore
import Testing

@testable import SyncTablesServer

/// The hub's parts on their own: positions, the history ring, subscription limits and the PostgreSQL channel
/// and payloads.
@Suite("Change hub")
struct ChangeHubTests {
    @Test func aPositionIsEpochColonSequenceAndNothingElseParses() {
        let position = ChangePosition(epoch: "00ab", sequence: 42)
        #expect(position.description == "00ab:42")
        #expect(ChangePosition("00ab:42") == position)
        for text in ["", ":1", "ab:", "ab:-1", "ab:1:2", "ab:+1", "ab: 1", "ab:18446744073709551616"] {
            #expect(ChangePosition(text) == nil, "\(text)")
        }
        #expect(ChangePosition.randomEpoch().count == 16)
    }

    @Test func theHistoryKeepsTheNewestChangesAndReplaysThoseAfterAPosition() {
        var history = ChangeHistory(limit: 3)
        for sequence in 1...5 {
            history.append(ChangeRecord(sequence: UInt64(sequence), announcement: .init(table: "t", scope: nil)))
        }
        #expect(history.count == 3)
        #expect(history.oldestSequence == 3)
        #expect(history.records(after: 3, where: { _ in true }).map(\.sequence) == [4, 5])
        #expect(history.records(after: 1, where: { _ in true }).map(\.sequence) == [3, 4, 5])
        #expect(history.records(after: 5, where: { _ in true }).isEmpty)
        #expect(history.records(after: 2, where: { $0.sequence != 4 }).map(\.sequence) == [3, 5])
    }

    @Test func aHubOpensAtMostItsFeedsAndNoneOnceShutDown() throws {
        let hub = ChangeHub(heartbeat: .seconds(15), historyLimit: 10, maxFeeds: 2)
        let first = try hub.subscribe(.everything, resumingAfter: nil, closeConnection: {})
        _ = try hub.subscribe(.everything, resumingAfter: nil, closeConnection: {})
        #expect(throws: ChangeFeedRefusal.tooManyFeeds) {
            try hub.subscribe(.everything, resumingAfter: nil, closeConnection: {})
        }
        first.cancel()
        _ = try hub.subscribe(.everything, resumingAfter: nil, closeConnection: {})
        hub.shutDown()
        #expect(hub.statistics.openFeeds == 0)
        #expect(throws: ChangeFeedRefusal.draining) {
            try hub.subscribe(.everything, resumingAfter: nil, closeConnection: {})
        }
    }

    @Test func aFeedWhoseWriterIsBusyIsDroppedPastItsQueueAndItsConnectionClosed() async throws {
        let hub = ChangeHub(heartbeat: .seconds(15), historyLimit: 10, maxFeeds: 2, queueLimit: 3)
        let closed = ClosedFlag()
        let feed = try hub.subscribe(.everything, resumingAfter: nil, closeConnection: { closed.set() })
        // Nobody waits on the feed: its writer is busy writing.
        for _ in 0..<3 { hub.publish([ChangeAnnouncement(table: "t", scope: nil)]) }
        #expect(hub.statistics.longestQueue == 3)
        #expect(!closed.isSet)
        hub.publish([ChangeAnnouncement(table: "t", scope: nil)])
        #expect(closed.isSet)
        #expect(hub.statistics.openFeeds == 0)
        #expect(await feed.next() == .ended)
    }

    @Test func aWaitingFeedGetsAWholeBurstAtOnce() async throws {
        let hub = ChangeHub(heartbeat: .seconds(15), historyLimit: 10, maxFeeds: 2, queueLimit: 3)
        let feed = try hub.subscribe(.everything, resumingAfter: nil, closeConnection: {})
        let waiting = Task { await feed.next() }
        while hub.statistics.waitingFeeds == 0 { try await Task.sleep(for: .milliseconds(1)) }
        hub.publish((0..<5).map { ChangeAnnouncement(table: "t\($0)", scope: nil) })
        guard case .items(let items) = await waiting.value else {
            Issue.record("no items")
            return
        }
        #expect(items.count == 5)
        #expect(hub.statistics.openFeeds == 1)
    }

    @Test func aScopedAudienceAdmitsOnlyItsOwnRowsOfAScopedTable() {
        let audience = ChangeAudience(tables: ["notes": .scoped("bob"), "shared": .all])
        func record(_ table: String, _ scope: String?) -> ChangeRecord {
            ChangeRecord(sequence: 1, announcement: ChangeAnnouncement(table: table, scope: scope))
        }
        #expect(audience.admits(record("notes", "bob")))
        #expect(!audience.admits(record("notes", "alice")))
        #expect(!audience.admits(record("notes", nil)))
        #expect(audience.admits(record("shared", "alice")))
        #expect(audience.admits(record("Shared", nil)))
        #expect(!audience.admits(record("plans", "bob")))
    }

    @Test func anOverlongScopeIsAnnouncedAsNoneAndMatchesNobody() {
        let long = String(repeating: "é", count: 501)
        #expect(ChangeAnnouncement(table: "notes", scope: long).scope == nil)
        let limit = String(repeating: "a", count: ChangeAnnouncement.maxScopeBytes)
        #expect(ChangeAnnouncement(table: "notes", scope: limit).scope == limit)
    }

    @Test func theChannelIsAValidIdentifierOfTheSchema() {
        #expect(PostgresChangeNotification.channel(schema: "public") == "synctables_changes_public")
        let odd = PostgresChangeNotification.channel(schema: "My \"Schema\"")
        let long = PostgresChangeNotification.channel(schema: String(repeating: "s", count: 60))
        for channel in [odd, long] {
            #expect(channel.utf8.count <= 63)
            #expect(channel.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" })
        }
        #expect(odd != PostgresChangeNotification.channel(schema: "my \"schema\""))
    }

    @Test func notificationPayloadsReadBackAndStaySmall() {
        let worstScope = String(repeating: "\u{1}", count: ChangeAnnouncement.maxScopeBytes)
        let cases: [PostgresChangeNotification] = [
            .change(ChangeAnnouncement(table: "notes", scope: "alice")),
            .change(ChangeAnnouncement(table: String(repeating: "t", count: 128), scope: worstScope)),
            .change(ChangeAnnouncement(table: "todo", scope: nil)),
            .reset("every row was removed"),
        ]
        for notification in cases {
            #expect(PostgresChangeNotification(payload: notification.payload) == notification)
            #expect(notification.payload.utf8.count < 8000)
        }
        #expect(PostgresChangeNotification(payload: "nonsense") == nil)
        #expect(PostgresChangeNotification(payload: #"{"table":1}"#) == nil)
    }
}

/// Set by a connection's close, in the hub tests.
private final class ClosedFlag: Sendable {
    private let state = LockedState(false)
    var isSet: Bool { state.withLock { $0 } }
    func set() { state.withLock { $0 = true } }
}
