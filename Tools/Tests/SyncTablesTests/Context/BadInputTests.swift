import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Bad input gets a typed error and leaves the store as it was.
@Suite("Bad input")
struct BadInputTests {
    static let invalidIDs: [(id: String, rule: String)] = [
        ("   ", "only whitespace"),
        (String(repeating: "x", count: 256), "too long"),
        ("a\u{0}b", "NUL"),
        ("a\u{1F}b", "control"),
        ("a\u{7F}b", "DEL"),
        ("a\u{85}b", "C1 control"),
        ("a\"b", "quote"),
        ("a+b", "plus"),
        ("a?b", "question mark"),
        ("a\\b", "backslash"),
        ("a/b", "slash"),
        ("a`b", "backtick"),
        (".", "dot"),
        ("..", "dot dot"),
    ]

    @Test(arguments: ContextStoreKind.allCases, invalidIDs.map(\.id))
    func invalidIdsAreRejectedOnEveryWrite(kind: ContextStoreKind, id: String) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        try await todos.insert(ContextTodo(id: "keep", text: "kept"))
        let before = try await ContextSnapshot.take(context)

        for write in [0, 1, 2, 3] {
            do {
                switch write {
                case 0: try await todos.insert(ContextTodo(id: id, text: "x"))
                case 1: try await todos.update(ContextTodo(id: id, text: "x"))
                case 2: try await todos.delete(id: id)
                default: _ = try await todos.lookup(id: id)
                }
                Issue.record("write \(write) accepted the invalid id")
            } catch SyncError.invalidItemID(let rejected, _) {
                #expect(rejected == id)
            }
        }

        #expect(try await ContextSnapshot.take(context) == before)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func updateAndDeleteNeedAnId(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)

        await #expect(throws: SyncError.invalidItemID("", reason: "the id is empty")) {
            try await todos.update(ContextTodo(text: "no id"))
        }
        await #expect(throws: SyncError.invalidItemID("", reason: "the id is empty")) {
            try await todos.delete(id: "")
        }
        #expect(try await context.pendingOperationCount() == 0)
    }

    @Test(
        arguments: ContextStoreKind.allCases,
        ["x; DROP TABLE ContextTodo", "x'y", "x\"y", "[x]", "`x`", "", "1abc", "a b", "é", "__operations", "__x"]
    )
    func tableNamesThatAreNotIdentifiersAreRejected(kind: ContextStoreKind, name: String) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        try await todos.insert(ContextTodo(id: "keep", text: "kept"))
        let before = try await ContextSnapshot.take(context)

        do {
            _ = try await context.table(JSONObject.self, named: name)
            Issue.record("accepted table name \(name)")
        } catch SyncError.invalidTableName(let rejected, _) {
            #expect(rejected == name)
        }

        #expect(try await ContextSnapshot.take(context) == before)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func propertyNamesAndValuesWithQuotesNulAndSQLRoundTrip(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let raw = try await context.table(JSONObject.self, named: "Weird")
        let item: JSONObject = [
            "id": "it's; DROP TABLE Weird; --",
            "na\"me": "val'ue",
            "x; DROP TABLE Weird": "Robert'); DROP TABLE Students;--",
            "nul\u{0}key": "nul\u{0}value",
            "[bracket]": "`tick`",
            "Text": "upper", "text": "lower",
        ]

        try await raw.insert(item)

        #expect(try await raw.lookup(id: "it's; DROP TABLE Weird; --") == item)
        #expect(
            try await raw.query().filter(Column("x; DROP TABLE Weird") == "Robert'); DROP TABLE Students;--")
                .fetchCount() == 1)
        #expect(try await raw.query().filter(Column("nul\u{0}key") == "nul\u{0}value").fetchCount() == 1)
        #expect(try await raw.query().filter(Column("text") == "upper").fetchCount() == 0)
        #expect(try await context.pendingOperations().first?.itemId == "it's; DROP TABLE Weird; --")
    }

    /// A `Codable` type that encodes as a single string, not an object.
    struct Scalar: SyncItem {
        var id: String
        init(id: String) { self.id = id }
        init(from decoder: any Decoder) throws { id = try decoder.singleValueContainer().decode(String.self) }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(id)
        }
    }

    @Test(arguments: ContextStoreKind.allCases)
    func typesThatDoNotEncodeToAnObjectAreRejected(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let scalars = try await context.table(Scalar.self)

        await #expect(throws: SyncError.itemNotObject(type: "Scalar")) {
            try await scalars.insert(Scalar(id: "a"))
        }
        await #expect(throws: SyncError.itemNotObject(type: "Scalar")) {
            try await scalars.update(Scalar(id: "a"))
        }
        #expect(try await context.pendingOperationCount() == 0)
        #expect(try await context.store.read(StoreQuery(table: "Scalar")).isEmpty)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func rowsThatDoNotDecodeAsTheTypeGiveATypedError(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let raw = try await context.table(JSONObject.self, named: "ContextTodo")
        let todos = try await context.table(ContextTodo.self)
        try await raw.insert(["id": "a", "text": 42])

        do {
            _ = try await todos.lookup(id: "a")
            Issue.record("decoded a number as text")
        } catch SyncError.decoding(let type, let table, let id, _) {
            #expect(type == "ContextTodo")
            #expect(table == "ContextTodo")
            #expect(id == "a")
        }
    }

    @Test func errorDescriptionsSayWhatToDo() {
        let conflict = SyncError.pendingOperationConflict(table: "T", id: "a", existing: .delete, attempted: .update)
        let duplicate = SyncError.duplicateInsert(table: "T", id: "a\u{0}")

        #expect(conflict.description.contains("pending delete"))
        #expect(conflict.description.contains("push first"))
        #expect(duplicate.description.contains("update(_:)"))
        #expect(duplicate.description.contains("\\0"))
    }
}
