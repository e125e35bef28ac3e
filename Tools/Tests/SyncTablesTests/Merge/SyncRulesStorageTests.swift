import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Rules are kept with their table in the store, whole, and a type that declares rules replaces them.
@Suite("Sync rules in the store")
struct SyncRulesStorageTests {
    @Test(arguments: ContextStoreKind.allCases)
    func everyPartOfTheRulesComesBackFromTheStore(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let rules = SyncRules(
            mergesFields: true, defaultFieldRule: .serverWins,
            fieldRules: ["quantity": .counter, "tags": .union, "note": .ask, "owner": .clientWins],
            conflictRules: [.updateDelete: .clientWins, .deleteUpdate: .serverWins, .insertInsert: .ask],
            sendsOnlyChangedFields: true, parents: [ParentReference(property: "listId", table: "TaskList")])

        try await context.setRules(rules, forTable: "stock")

        #expect(try await context.rules(forTable: "stock") == rules)
        #expect(try await context.rules(forTable: "STOCK") == rules)
        #expect(try await context.rules(forTable: "other") == .none)
    }

    @Test func aTypeThatDeclaresRulesReplacesRulesSetByHandAndOtherHandlesKeepThem() async throws {
        let context = try await ContextStoreKind.sqlite.makeContext()
        try await context.setRules(SyncRules(fieldRules: ["quantity": .serverWins]), forTable: "DeclaredChore")
        _ = try await context.table(JSONObject.self, named: "DeclaredChore")
        #expect(try await context.rules(forTable: "DeclaredChore").fieldRules == ["quantity": .serverWins])

        _ = try await context.table(DeclaredChore.self)

        #expect(try await context.rules(forTable: "DeclaredChore") == DeclaredChore.syncRules)
    }

    @Test func rulesForAnInvalidTableNameAreRefusedAndNothingIsStored() async throws {
        let context = try await ContextStoreKind.memory.makeContext()

        await #expect(throws: SyncError.self) { try await context.setRules(.none, forTable: "__tables") }
        await #expect(throws: SyncError.self) { try await context.setRules(.none, forTable: "no spaces") }
        #expect(try await context.store.read(StoreQuery(table: "__tables")).isEmpty)
    }
}
