import Testing

@testable import SyncTables

/// The three-way merge itself: what each rule gives a field, and what changes on one side only give.
@Suite("Field merge")
struct FieldMergeTests {
    private let rules = SyncRules(
        fieldRules: [
            "quantity": .counter, "price": .counter, "tags": .union, "status": .serverWins, "owner": .clientWins,
            "note": .ask,
        ])

    @Test func aFieldChangedOnOneSideTakesThatSidesValue() {
        let ancestor: JSONObject = ["id": "a", "title": "milk", "status": "open", "version": "v1"]
        let local: JSONObject = ["id": "a", "title": "oat milk", "status": "open", "version": "v1"]
        let server: JSONObject = ["id": "a", "title": "milk", "status": "done", "version": "v2"]

        let result = rules.merge(ancestor: ancestor, local: local, server: server)

        #expect(result.merged == ["id": "a", "title": "oat milk", "status": "done", "version": "v2"])
        #expect(result.summary == "status: server's; title: kept yours")
        #expect(result.steps.map(\.change) == [.server, .local])
        #expect(result.isComplete)
    }

    @Test func aFieldChangedOnBothSidesFollowsItsRule() {
        let ancestor: JSONObject = [
            "id": "a", "title": "milk", "status": "open", "owner": "ann", "quantity": 9, "price": 1.5,
            "tags": ["a", "b"],
        ]
        let local: JSONObject = [
            "id": "a", "title": "oat milk", "status": "later", "owner": "bob", "quantity": 7, "price": 2.0,
            "tags": ["a", "c"],
        ]
        let server: JSONObject = [
            "id": "a", "title": "soy milk", "status": "done", "owner": "cat", "quantity": 10, "price": 1.25,
            "tags": ["b", "d"], "version": "v2",
        ]

        let result = rules.merge(ancestor: ancestor, local: local, server: server)

        #expect(result.merged["title"] == "oat milk")  // last writer: this device's write reaches the server last
        #expect(result.merged["status"] == "done")
        #expect(result.merged["owner"] == "bob")
        #expect(result.merged["quantity"] == 8)  // 10 + (7 − 9)
        #expect(result.merged["price"] == 1.75)  // 1.25 + (2.0 − 1.5)
        #expect(result.merged["tags"] == ["d", "c"])  // b removed here, c added here, d added there
        #expect(result.merged["version"] == "v2")
        let summaries = Dictionary(uniqueKeysWithValues: result.steps.map { ($0.field, $0.summary) })
        #expect(summaries["quantity"] == "10 + (−2)")
        #expect(summaries["title"] == "yours, written last")
        #expect(summaries["status"] == "server's over yours")
        #expect(result.steps.allSatisfy { $0.change == .both })
    }

    /// Found by MergeConvergenceTests: two devices adding 3 each reach equal totals, and both additions count.
    @Test func equalTotalsOfACounterAreTwoChangesBothKept() {
        let result = rules.merge(
            ancestor: ["id": "a", "quantity": 1], local: ["id": "a", "quantity": 4], server: ["id": "a", "quantity": 4])

        #expect(result.merged["quantity"] == 7)
        #expect(result.summary == "quantity: 4 + (3)")
    }

    @Test func aFieldThatAsksLeavesTheMergeIncompleteWithTheLocalValue() {
        let result = rules.merge(
            ancestor: ["id": "a", "note": "x"], local: ["id": "a", "note": "mine"],
            server: ["id": "a", "note": "theirs"])

        #expect(!result.isComplete && result.askedFields == ["note"])
        #expect(result.merged["note"] == "mine")
    }

    @Test func withoutAnAncestorEveryDifferenceCountsAsChangedOnBothSides() {
        let result = rules.merge(
            ancestor: nil, local: ["id": "a", "quantity": 3, "tags": ["x"], "status": "mine"],
            server: ["id": "a", "quantity": 5, "tags": ["y"], "status": "theirs"])

        #expect(result.merged["quantity"] == 3)  // a counter needs its ancestor: the last writer's value
        #expect(result.merged["tags"] == ["y", "x"])
        #expect(result.merged["status"] == "theirs")
    }

    @Test func propertiesTheLocalItemLacksAndSystemPropertiesAreTheServers() {
        let result = rules.merge(
            ancestor: ["id": "a", "userId": "alice", "updatedAt": "t1"],
            local: ["id": "a", "text": "new", "updatedAt": "t0"],
            server: ["id": "a", "userId": "alice", "text": "old", "updatedAt": "t2", "version": "v2"])

        #expect(result.merged == ["id": "a", "userId": "alice", "text": "new", "updatedAt": "t2", "version": "v2"])
        #expect(result.steps.map(\.field) == ["text"])
    }

    @Test func aCounterOfMixedKindsOrOtherValuesFallsBackToTheLastWriter() {
        let result = rules.merge(
            ancestor: ["id": "a", "quantity": "one"], local: ["id": "a", "quantity": 2],
            server: ["id": "a", "quantity": 3])

        #expect(result.merged["quantity"] == 2)
        #expect(result.steps.first?.summary.contains("a counter needs numbers") == true)
    }

    @Test func onlyTheChangedFieldsOfAnUpdateAreSent() {
        let ancestor: JSONObject = ["id": "a", "title": "milk", "done": false, "userId": "alice", "version": "v1"]
        let item: JSONObject = ["id": "a", "title": "milk", "done": true, "version": "v1"]

        #expect(ChangedFields.item(item, since: ancestor) == ["id": "a", "done": true, "version": "v1"])
    }
}
