import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Conflicts of updates merged per field against a real server, with the trace the history keeps.
@Suite("Field merge on push")
struct FieldMergeOnPushTests {
    private static let rules = SyncRules(
        fieldRules: ["quantity": .counter, "tags": .union, "status": .serverWins, "note": .ask])

    @Test func editsOfDifferentFieldsOnTwoDevicesBothSurvive() async throws {
        try await SyncHarness.with { harness in
            let (first, second) = try await harness.twoChoreDevices(
                sharing: Chore(id: "a", title: "milk", status: "open"), rules: Self.rules)
            try await first.edit("a") { $0.title = "oat milk" }
            try await first.context.push()
            try await second.edit("a") { $0.quantity = 2 }

            let summary = try await second.context.push()

            #expect(summary.resolvedConflicts == 1 && summary.pushedOperations == 1)
            let server = try #require(try await harness.serverChore("a"))
            #expect(server["title"] == "oat milk" && server["quantity"] == 2)
            let local = try #require(try await second.chores.lookup(id: "a"))
            #expect(local.title == "oat milk" && local.quantity == 2 && local.version == server["version"]?.stringValue)
            #expect(try await second.context.pendingOperationCount() == 0)
            let resolved = try #require(try await second.context.history().first { $0.outcome == .resolved })
            #expect(resolved.conflict == .updateUpdate && resolved.conflictRule == .merge)
            #expect(resolved.merge.map(\.description) == ["quantity: kept yours", "title: server's"])
            #expect(resolved.message == "update/update: merged per field: quantity: kept yours; title: server's")
        }
    }

    @Test func decrementsOnTwoDevicesAreBothKept() async throws {
        try await SyncHarness.with { harness in
            let (first, second) = try await harness.twoChoreDevices(
                sharing: Chore(id: "a", quantity: 10), rules: Self.rules)
            try await first.edit("a") { $0.quantity -= 3 }
            try await first.context.push()
            try await second.edit("a") { $0.quantity -= 2 }

            try await second.context.push()

            #expect(try await harness.serverChore("a")?["quantity"] == 5)
            let resolved = try #require(try await second.context.history().first { $0.outcome == .resolved })
            #expect(resolved.merge.map(\.description) == ["quantity: 7 + (−2)"])
            try await first.chores.pull()
            #expect(try await first.chores.lookup(id: "a")?.quantity == 5)
        }
    }

    /// Found by MergeConvergenceTests: the server's answer to the second device equals its local data, which
    /// is no sign that its own write landed before, and both increments count.
    @Test func equalIncrementsOnTwoDevicesAreBothCounted() async throws {
        try await SyncHarness.with { harness in
            let (first, second) = try await harness.twoChoreDevices(
                sharing: Chore(id: "a", quantity: 1), rules: Self.rules)
            try await first.edit("a") { $0.quantity += 3 }
            try await first.context.push()
            try await second.edit("a") { $0.quantity += 3 }

            try await second.context.push()

            #expect(try await harness.serverChore("a")?["quantity"] == 7)
        }
    }

    @Test func setsKeepWhatEachDeviceAddedAndDropWhatItRemoved() async throws {
        try await SyncHarness.with { harness in
            let (first, second) = try await harness.twoChoreDevices(
                sharing: Chore(id: "a", tags: ["home", "urgent"]), rules: Self.rules)
            try await first.edit("a") { $0.tags = ["home", "urgent", "shop"] }
            try await first.context.push()
            try await second.edit("a") { $0.tags = ["home"] }

            try await second.context.push()

            #expect(try await harness.serverChore("a")?["tags"] == ["home", "shop"])
        }
    }

    @Test func theServersRuleAndTheLastWriterDecideFieldsBothChanged() async throws {
        try await SyncHarness.with { harness in
            let (first, second) = try await harness.twoChoreDevices(
                sharing: Chore(id: "a", title: "milk", status: "open"), rules: Self.rules)
            try await first.edit("a") { ($0.title, $0.status) = ("soy milk", "done") }
            try await first.context.push()
            try await second.edit("a") { ($0.title, $0.status) = ("oat milk", "later") }

            try await second.context.push()

            let server = try #require(try await harness.serverChore("a"))
            #expect(server["title"] == "oat milk" && server["status"] == "done")
            let resolved = try #require(try await second.context.history().first { $0.outcome == .resolved })
            #expect(
                resolved.merge.map(\.description) == [
                    "status: server's over yours", "title: yours, written last",
                ])
        }
    }

    @Test func aFieldWhoseRuleIsClientWinsKeepsTheLocalValue() async throws {
        let rules = SyncRules(defaultFieldRule: .serverWins, fieldRules: ["status": .clientWins])
        try await SyncHarness.with(softDelete: .none) { harness in
            let (first, second) = try await harness.twoChoreDevices(
                sharing: Chore(id: "a", title: "milk", status: "open"), rules: rules)
            try await first.edit("a") { ($0.title, $0.status) = ("soy milk", "done") }
            try await first.context.push()
            try await second.edit("a") { ($0.title, $0.status) = ("oat milk", "later") }

            try await second.context.push()

            let server = try #require(try await harness.serverChore("a"))
            #expect(server["title"] == "soy milk" && server["status"] == "later")
        }
    }

    @Test func aMergeThatChangesNothingTakesTheServersItemWithoutSendingIt() async throws {
        try await SyncHarness.with { harness in
            let (first, second) = try await harness.twoChoreDevices(
                sharing: Chore(id: "a", status: "open"), rules: Self.rules)
            try await first.edit("a") { $0.status = "done" }
            try await first.context.push()
            try await second.edit("a") { $0.status = "later" }
            _ = try await harness.takeRequests()

            try await second.context.push()

            #expect(try await harness.takeRequests().filter { $0.method == "PATCH" }.count == 1)
            #expect(try await second.chores.lookup(id: "a")?.status == "done")
            #expect(try await second.context.pendingOperationCount() == 0)
        }
    }

    @Test func aFieldThatAsksLeavesTheConflictToThePolicyWithTheMergeSoFar() async throws {
        try await SyncHarness.with { harness in
            let (first, second) = try await harness.twoChoreDevices(
                sharing: Chore(id: "a", note: "base"), rules: Self.rules)
            try await first.edit("a") { ($0.note, $0.quantity) = ("theirs", 4) }
            try await first.context.push()
            try await second.edit("a") { $0.note = "mine" }

            let failure = try await requirePushFailure { try await second.context.push() }

            let error = try #require(failure.errors.first)
            #expect(error.conflictKind == .updateUpdate)
            #expect(error.ancestorItem?["note"] == "base")
            let merge = try #require(error.merged(with: Self.rules))
            #expect(merge.askedFields == ["note"] && merge.merged["quantity"] == 4)
            var decided = merge.merged
            decided["note"] = "theirs and mine"
            try await error.context.resolve(error, with: .keepOperation(updatingItem: decided))
            try await second.context.push()
            let server = try #require(try await harness.serverChore("a"))
            #expect(server["note"] == "theirs and mine" && server["quantity"] == 4)
        }
    }

    @Test func aCustomPolicySettlesTheFieldsThatAskWithinThePush() async throws {
        let policy = ConflictPolicy.custom { error in
            guard var merge = error.merged(with: Self.rules) else { return .unresolved }
            merge.merged["note"] = .string("decided")
            return .retry(updatingItem: merge.merged)
        }
        try await SyncHarness.with { harness in
            let (first, second) = try await harness.twoChoreDevices(
                sharing: Chore(id: "a", note: "base"), rules: Self.rules, conflictPolicy: policy)
            try await first.edit("a") { $0.note = "theirs" }
            try await first.context.push()
            try await second.edit("a") { $0.note = "mine" }

            try await second.context.push()

            #expect(try await harness.serverChore("a")?["note"] == "decided")
        }
    }

    /// A pull that meets an item with a pending update (the engine pulls without pushing first) merges the
    /// server's copy into it, so the push that follows meets no conflict.
    @Test func aPullMergesTheServersCopyIntoAPendingUpdate() async throws {
        try await SyncHarness.with { harness in
            let (first, second) = try await harness.twoChoreDevices(
                sharing: Chore(id: "a", title: "milk", quantity: 1), rules: Self.rules)
            try await first.edit("a") { $0.title = "oat milk" }
            try await first.context.push()
            try await second.edit("a") { $0.quantity = 3 }
            var options = PullOptions()
            options.pushesFirst = false

            let summary = try await second.chores.pull(options: options)

            #expect(summary.merged == 1 && summary.skippedPending == 0)
            let local = try #require(try await second.chores.lookup(id: "a"))
            #expect(local.title == "oat milk" && local.quantity == 3)
            let server = try #require(try await harness.serverChore("a"))
            #expect(try await second.context.pendingOperations().first?.ancestor == server)
            let entry = try #require(try await second.context.history().first)
            #expect(
                entry.outcome == .resolved
                    && entry.merge.map(\.description) == ["quantity: kept yours", "title: server's"])
            _ = try await harness.takeRequests()
            try await second.context.push()
            #expect(try await harness.takeRequests().filter { $0.method == "PATCH" }.count == 1)
            let pushed = try #require(try await harness.serverChore("a"))
            #expect(pushed["title"] == "oat milk" && pushed["quantity"] == 3)
        }
    }

    @Test func onlyTheChangedFieldsOfAnUpdateAreSentWhenTheTableSaysSo() async throws {
        var rules = Self.rules
        rules.sendsOnlyChangedFields = true
        try await SyncHarness.with { harness in
            let (first, _) = try await harness.twoChoreDevices(
                sharing: Chore(id: "a", title: "milk", tags: ["x"]), rules: rules)
            try await first.edit("a") { $0.quantity = 3 }
            _ = try await harness.takeRequests()

            try await first.context.push()

            let patch = try #require(try await harness.takeRequests().first { $0.method == "PATCH" })
            let body = try JSONObject(parsing: try #require(patch.body))
            #expect(Set(body.properties.keys) == ["id", "quantity"])
            #expect(patch.header("If-Match") != nil)
            #expect(try await harness.serverChore("a")?["title"] == "milk")
        }
    }

    @Test func rulesDeclaredOnTheTypeAreFollowedByAPushThatNeverOpenedTheTable() async throws {
        try await SyncHarness.with { harness in
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            let writer = try await harness.device()
            try await writer.context.table(DeclaredChore.self).insert(DeclaredChore(id: "a", quantity: 10))
            try await writer.context.push()
            let device = try await SyncContext(store: try SQLiteStore(path: path), client: SyncClient(url: harness.url))
            let chores = try await device.table(DeclaredChore.self)
            try await chores.pull()
            try await chores.update(
                DeclaredChore(id: "a", quantity: 9, version: try await chores.lookup(id: "a")?.version))
            try await device.close()
            let writerChores = try await writer.context.table(DeclaredChore.self)
            var other = try #require(try await writerChores.lookup(id: "a"))
            other.quantity = 15
            try await writerChores.update(other)
            try await writer.context.push()

            // A context that never opens the table (as `synctables push` does) follows the stored rules.
            let reopened = try await SyncContext(
                store: try SQLiteStore(path: path), client: SyncClient(url: harness.url))
            try await reopened.push()

            #expect(try await harness.serverItem("a", table: "DeclaredChore")?["quantity"] == 14)
        }
    }
}

/// A type declaring its rules.
struct DeclaredChore: SyncItem, SyncRulesProvider, Equatable {
    var id: String
    var quantity: Int = 0
    var version: String?

    static let syncRules = SyncRules(keys: CodingKeys.self) {
        $0.merge(.quantity, .counter)
    }
}
