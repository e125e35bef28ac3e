import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Writes and queries that cannot succeed later fail at once with a typed error, and change nothing.
@Suite("Fail now")
struct FailNowTests {
    // MARK: update of an item that is not stored

    @Test(arguments: ContextStoreKind.allCases)
    func updateOfAnIdThatIsNotStoredThrowsNotFoundAndChangesNothing(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        try await todos.insert(ContextTodo(id: "kept", text: "kept"))
        let before = try await ContextSnapshot.take(context)

        await #expect(throws: SyncError.notFound(table: "ContextTodo", id: "ghost")) {
            try await todos.update(ContextTodo(id: "ghost", text: "x"))
        }

        #expect(try await ContextSnapshot.take(context) == before)
        #expect(
            SyncError.notFound(table: "ContextTodo", id: "ghost").description
                == "No item with id \"ghost\" is stored in table 'ContextTodo', so it cannot be updated. Use "
                + "insert(_:) to add it, or save(_:) to insert or update.")
    }

    @Test(arguments: ContextStoreKind.allCases)
    func updateReturnsTheItemAsStoredWithTheStoredServerProperties(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        let pulled: JSONObject = [
            "id": "a", "text": "x", "complete": false, "version": "v3",
            "createdAt": "2024-01-01T00:00:00.000Z", "updatedAt": "2024-01-02T00:00:00.000Z",
        ]
        try await context.store.write { try $0.upsert(table: "ContextTodo", items: [pulled]) }

        let updated = try await todos.update(ContextTodo(id: "a", text: "y", complete: true))

        #expect(updated.text == "y" && updated.complete)
        #expect(updated.version == "v3")
        #expect(updated.createdAt == Date(timeIntervalSince1970: 1_704_067_200))
        #expect(try await todos.lookup(id: "a") == updated)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func saveInsertsAnItemThatIsNotStoredAndUpdatesOneThatIs(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)

        try await todos.save(ContextTodo(id: "a", text: "first"))
        #expect(try await context.pendingOperations().map(\.kind) == [.insert])
        let saved = try await todos.save(ContextTodo(id: "a", text: "second"))

        #expect(saved.text == "second")
        #expect(try await todos.lookup(id: "a")?.text == "second")
        // The update folded into the queued insert.
        #expect(try await context.pendingOperations().map(\.kind) == [.insert])
        let generated = try await todos.save(ContextTodo(text: "no id"))
        #expect(!generated.id.isEmpty)
        #expect(try await todos.lookup(id: generated.id)?.text == "no id")
    }

    @Test(arguments: ContextStoreKind.allCases)
    func saveOfAPulledItemQueuesAnUpdate(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        try await context.store.write { try $0.upsert(table: "ContextTodo", items: [["id": "p", "text": "x"]]) }

        try await todos.save(ContextTodo(id: "p", text: "y"))

        #expect(try await context.pendingOperations().map(\.kind) == [.update])
    }

    // MARK: untyped items with an id that is not a string

    @Test(arguments: ContextStoreKind.allCases)
    func aJSONObjectWithANonStringIdIsRefusedInsteadOfRekeyed(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let raw = try await context.table(JSONObject.self, named: "ContextTodo")
        try await raw.insert(["id": "kept", "text": "kept"])
        let before = try await ContextSnapshot.take(context)

        for (item, kindName) in [
            (["id": 5, "text": "x"], "a number"), (["id": true], "a boolean"), (["id": ["a"]], "an array"),
        ] as [(JSONObject, String)] {
            do {
                try await raw.insert(item)
                Issue.record("insert accepted \(item)")
            } catch let error as SyncError {
                guard case .invalidItemID(let id, let reason) = error else {
                    Issue.record("unexpected \(error)")
                    continue
                }
                #expect(id == item["id"]?.description)
                #expect(reason == "the id is \(kindName), not a string")
            }
            await #expect(throws: SyncError.self) { try await raw.save(item) }
        }

        #expect(try await ContextSnapshot.take(context) == before)
        #expect(
            SyncError.invalidItemID("5", reason: "the id is a number, not a string").description.hasPrefix(
                "Invalid item id \"5\": the id is a number, not a string."))
    }

    // MARK: values that would be stored lossily

    struct Payment: SyncItem, Equatable {
        var id: String
        var amount: Decimal
    }

    @Test(arguments: ContextStoreKind.allCases)
    func aDecimalThatNoJSONNumberHoldsExactlyIsRefused(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let payments = try await context.table(Payment.self)
        let precise = try #require(Decimal(string: "12345678901234.56789"))
        let before = try await ContextSnapshot.take(context, table: "Payment")

        do {
            try await payments.insert(Payment(id: "p", amount: precise))
            Issue.record("a decimal beyond double precision was stored")
        } catch SyncError.encoding(let type, let message) {
            #expect(type == "Payment")
            #expect(message.contains("The decimal 12345678901234.56789 has no exact form as a JSON number"))
        }

        #expect(try await ContextSnapshot.take(context, table: "Payment") == before)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func decimalsThatAJSONNumberHoldsExactlyRoundTrip(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let payments = try await context.table(Payment.self)

        for text in ["12.5", "0.1", "19.99", "-3", "9007199254740993", "1e-7"] {
            let amount = try #require(Decimal(string: text))
            try await payments.insert(Payment(id: "p\(text)", amount: amount))
            #expect(try await payments.lookup(id: "p\(text)")?.amount == amount, "\(text)")
        }
    }
}
