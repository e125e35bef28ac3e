import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Each kind of conflict resolved by a table's rule, against servers that soft-delete and servers that
/// delete rows for good.
@Suite("Conflict kinds and their rules")
struct ConflictKindRuleTests {
    static let deletePolicies: [SoftDeletePolicy] = [.allTables, .none]

    private static func rules(_ kind: ConflictKind, _ rule: ConflictRule) -> SyncRules {
        SyncRules(mergesFields: true, conflictRules: [kind: rule])
    }

    // MARK: update/delete

    @Test(arguments: deletePolicies)
    func anUpdateMeetingADeletionAcceptsItWhenTheServerWins(softDelete: SoftDeletePolicy) async throws {
        try await SyncHarness.with(softDelete: softDelete) { harness in
            let (first, second) = try await harness.twoChoreDevices(
                sharing: Chore(id: "a", title: "milk"), rules: Self.rules(.updateDelete, .serverWins))
            try await first.chores.delete(id: "a")
            try await first.context.push()
            try await second.edit("a") { $0.title = "oat milk" }

            let summary = try await second.context.push()

            #expect(summary.resolvedConflicts == 1)
            #expect(try await second.chores.lookup(id: "a") == nil)
            #expect(try await second.context.pendingOperationCount() == 0)
            let entry = try #require(try await second.context.history().first { $0.outcome == .resolved })
            #expect(entry.conflict == .updateDelete && entry.conflictRule == .serverWins)
            #expect(entry.message == "update/delete: deleted on the server; the deletion stands")
            let server = try await harness.serverChore("a")
            #expect(server == nil || server?["deleted"] == true)
        }
    }

    @Test(arguments: deletePolicies)
    func anUpdateMeetingADeletionCreatesTheItemAgainWhenTheClientWins(softDelete: SoftDeletePolicy) async throws {
        try await SyncHarness.with(softDelete: softDelete) { harness in
            let (first, second) = try await harness.twoChoreDevices(
                sharing: Chore(id: "a", title: "milk"), rules: Self.rules(.updateDelete, .clientWins))
            try await first.chores.delete(id: "a")
            try await first.context.push()
            try await second.edit("a") { $0.title = "oat milk" }

            try await second.context.push()

            let server = try #require(try await harness.serverChore("a"))
            #expect(server["title"] == "oat milk" && server["deleted"] == false)
            #expect(try await second.context.pendingOperationCount() == 0)
            #expect(try await second.chores.lookup(id: "a")?.version == server["version"]?.stringValue)
            try await first.chores.pull()
            #expect(try await first.chores.lookup(id: "a")?.title == "oat milk")
        }
    }

    @Test func anUpdateMeetingADeletionStaysAPlainFailureInATableWithoutARuleForIt() async throws {
        try await SyncHarness.with(softDelete: .none) { harness in
            let (first, second) = try await harness.twoChoreDevices(
                sharing: Chore(id: "a", title: "milk"), rules: SyncRules(mergesFields: true))
            try await first.chores.delete(id: "a")
            try await first.context.push()
            try await second.edit("a") { $0.title = "oat milk" }

            let failure = try await requirePushFailure { try await second.context.push() }

            #expect(failure.errors.map(\.status) == [404])
            #expect(failure.errors.first?.conflictKind == .updateDelete)
        }
    }

    // MARK: delete/update

    @Test(arguments: deletePolicies)
    func aDeleteMeetingAnUpdateBringsTheServersItemBackWhenTheServerWins(softDelete: SoftDeletePolicy) async throws {
        try await SyncHarness.with(softDelete: softDelete) { harness in
            let (first, second) = try await harness.twoChoreDevices(
                sharing: Chore(id: "a", title: "milk"), rules: Self.rules(.deleteUpdate, .serverWins))
            try await first.edit("a") { $0.title = "oat milk" }
            try await first.context.push()
            try await second.chores.delete(id: "a")

            try await second.context.push()

            #expect(try await second.chores.lookup(id: "a")?.title == "oat milk")
            #expect(try await harness.serverChore("a")?["deleted"] == false)
            let entry = try #require(try await second.context.history().first { $0.outcome == .resolved })
            #expect(entry.conflict == .deleteUpdate && entry.kind == .delete)
        }
    }

    @Test(arguments: deletePolicies)
    func aDeleteMeetingAnUpdateIsSentAgainWhenTheClientWins(softDelete: SoftDeletePolicy) async throws {
        try await SyncHarness.with(softDelete: softDelete) { harness in
            let (first, second) = try await harness.twoChoreDevices(
                sharing: Chore(id: "a", title: "milk"), rules: Self.rules(.deleteUpdate, .clientWins))
            try await first.edit("a") { $0.title = "oat milk" }
            try await first.context.push()
            try await second.chores.delete(id: "a")

            try await second.context.push()

            let server = try await harness.serverChore("a")
            #expect(server == nil || server?["deleted"] == true)
            #expect(try await second.context.pendingOperationCount() == 0)
        }
    }

    // MARK: insert/insert

    @Test func twoInsertsOfOneIdMergeTheirFields() async throws {
        try await SyncHarness.with { harness in
            let rules = SyncRules(fieldRules: ["status": .serverWins])
            let first = try await harness.choreDevice(rules: rules)
            let second = try await harness.choreDevice(rules: rules)
            try await first.chores.insert(Chore(id: "x", title: "milk", status: "open", quantity: 1))
            try await first.context.push()
            try await second.chores.insert(Chore(id: "x", title: "oat milk", status: "later", quantity: 1))

            try await second.context.push()

            let server = try #require(try await harness.serverChore("x"))
            #expect(server["title"] == "oat milk" && server["status"] == "open")
            let entry = try #require(try await second.context.history().first { $0.outcome == .resolved })
            #expect(entry.conflict == .insertInsert && entry.conflictRule == .merge)
            #expect(try await second.context.pendingOperationCount() == 0)
        }
    }

    @Test(arguments: [ConflictRule.serverWins, .clientWins])
    func twoInsertsOfOneIdFollowTheTablesRule(rule: ConflictRule) async throws {
        try await SyncHarness.with { harness in
            let rules = Self.rules(.insertInsert, rule)
            let first = try await harness.choreDevice(rules: rules)
            let second = try await harness.choreDevice(rules: rules)
            try await first.chores.insert(Chore(id: "x", title: "first"))
            try await first.context.push()
            try await second.chores.insert(Chore(id: "x", title: "second"))

            try await second.context.push()

            let expected = rule == .serverWins ? "first" : "second"
            #expect(try await harness.serverChore("x")?["title"] == .string(expected))
            #expect(try await second.chores.lookup(id: "x")?.title == expected)
            #expect(try await second.context.pendingOperationCount() == 0)
        }
    }

    // MARK: Delete, then insert again (the offline undo)

    @Test(arguments: deletePolicies)
    func anItemDeletedAndInsertedAgainBeforeAPushIsUpdatedOnTheServer(softDelete: SoftDeletePolicy) async throws {
        try await SyncHarness.with(softDelete: softDelete) { harness in
            let (_, device) = try await harness.twoChoreDevices(sharing: Chore(id: "a", title: "milk"), rules: .none)
            try await device.chores.delete(id: "a")
            try await device.chores.insert(Chore(id: "a", title: "oat milk"))
            _ = try await harness.takeRequests()

            try await device.context.push()

            #expect(try await harness.takeRequests().map(\.method) == ["PATCH"])
            let server = try #require(try await harness.serverChore("a"))
            #expect(server["title"] == "oat milk" && server["deleted"] == false)
        }
    }

    /// Once the delete was confirmed the device has forgotten the item: inserting its id again is a plain
    /// insert, which a server that soft-deletes refuses with the deleted item; the table's rule restores it.
    @Test(arguments: deletePolicies)
    func anIdDeletedOnTheServerAndInsertedAgainIsRestoredWhenTheClientWins(softDelete: SoftDeletePolicy)
        async throws
    {
        try await SyncHarness.with(softDelete: softDelete) { harness in
            let (_, device) = try await harness.twoChoreDevices(
                sharing: Chore(id: "a", title: "milk"), rules: Self.rules(.insertInsert, .clientWins))
            try await device.chores.delete(id: "a")
            try await device.context.push()
            try await device.chores.insert(Chore(id: "a", title: "oat milk"))

            try await device.context.push()

            let server = try #require(try await harness.serverChore("a"))
            #expect(server["title"] == "oat milk" && server["deleted"] == false)
            #expect(try await device.context.pendingOperationCount() == 0)
            #expect(try await device.chores.lookup(id: "a")?.version == server["version"]?.stringValue)
        }
    }

    @Test(arguments: deletePolicies)
    func anInsertAfterADeleteThatWasSentRecreatesTheItem(softDelete: SoftDeletePolicy) async throws {
        try await SyncHarness.with(softDelete: softDelete) { harness in
            let (other, device) = try await harness.twoChoreDevices(
                sharing: Chore(id: "a", title: "same"), rules: .none)
            // The device's delete was sent and reached the server, but the push stopped before its answer (as
            // a kill leaves it): the operation is queued, attempted.
            try await device.chores.delete(id: "a")
            let sent = try #require(try await device.context.pendingOperations().first)
            _ = try await device.context.queue.markAttempted(sent)
            try await other.chores.delete(id: "a")
            try await other.context.push()
            // The device inserts the item again, unchanged.
            try await device.chores.insert(Chore(id: "a", title: "same"))
            #expect(try await device.context.pendingOperations().first?.kind == .insert)

            try await device.context.push()

            let server = try #require(try await harness.serverChore("a"))
            #expect(server["title"] == "same" && server["deleted"] == false)
            #expect(try await device.chores.lookup(id: "a")?.title == "same")
            #expect(try await device.context.pendingOperationCount() == 0)
        }
    }
}
