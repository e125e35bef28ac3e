import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// A generic item type's name (`Box<Int>`) is no table name: the error says to pass `named:`.
@Suite("Table names of generic item types")
struct GenericTableNameTests {
    struct Box<Value: Codable & Sendable>: SyncItem {
        var id: String
        var value: Value
    }

    @Test(arguments: ContextStoreKind.allCases)
    func aGenericTypeNeedsANameAndGetsOneWithNamed(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()

        let error = try await #require(throws: SyncError.self) { try await context.table(Box<Int>.self) }

        guard case .invalidTableName(let name, let reason) = error else {
            Issue.record("expected invalidTableName, got \(error)")
            return
        }
        #expect(name == "Box<Int>")
        #expect(reason.contains("the name of the type Box<Int>: pass `named:` to choose a table name"))
        #expect(!"\(error)".contains(".."))
        let boxes = try await context.table(Box<Int>.self, named: "IntBox")
        try await boxes.insert(Box(id: "a", value: 1))
        #expect(try await boxes.lookup(id: "a")?.value == 1)
    }

    @Test func anExplicitInvalidNameKeepsThePlainMessage() async throws {
        let context = try await ContextStoreKind.memory.makeContext()

        let error = try await #require(throws: SyncError.self) {
            try await context.table(Box<Int>.self, named: "a b")
        }

        #expect(!"\(error)".contains("named:"))
    }
}
