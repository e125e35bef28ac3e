import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@_spi(SyncTablesTools) @testable import SyncTablesSQLite

/// The queue table has no index on the item: an item's row carries its operation's sequence (`_queued`),
/// and an item without a row has its pointer in `__synctables_queued_items`. The conformance suite checks
/// the queue's behaviour on every store; these tests check where SQLiteStore keeps the pointers.
@Suite("SQLite queue pointers")
struct SQLiteQueuePointersTests {
    private static func operation(_ sequence: Int, _ table: String, _ itemId: String, kind: OperationKind = .insert)
        -> PendingOperation
    {
        PendingOperation(
            id: "op-\(sequence)", sequence: sequence, kind: kind, table: table, itemId: itemId, item: nil,
            state: .pending, version: 1, createdAt: Timestamp(ticks: 0), attempts: 0)
    }

    private static func scalar(_ sql: String, path: String) throws -> SQLiteValue {
        let database = try Database(path: path)
        defer { try? database.close() }
        return try database.scalar(sql)
    }

    /// A context on a new store file with its to-do table, the file's path, and the directory that keeps it.
    private static func fileContext() async throws -> (TemporaryDirectory, String, SyncContext, SyncTable<ContextTodo>)
    {
        let directory = try TemporaryDirectory()
        let path = directory.newDatabasePath()
        let context = try await SyncContext(store: try SQLiteStore(path: path))
        return (directory, path, context, try await context.table(ContextTodo.self))
    }

    @Test func aLocalInsertPutsItsSequenceOnTheRowAndTheQueueHasNoIndex() async throws {
        let (directory, path, context, todos) = try await Self.fileContext()
        try await todos.insert(ContextTodo(id: "a", text: "one"))
        try await todos.insert(contentsOf: (0..<100).map { ContextTodo(id: "b\($0)", text: "many") })
        let queued = try await context.pendingOperations()
        try await context.close()

        let sequence = try #require(queued.first { $0.itemId == "a" }).sequence
        #expect(
            try Self.scalar("SELECT _queued FROM ContextTodo WHERE id = 'a'", path: path) == .integer(Int64(sequence)))
        #expect(try Self.scalar("SELECT COUNT(*) FROM ContextTodo WHERE _queued IS NULL", path: path) == .integer(0))
        #expect(try Self.scalar("SELECT COUNT(*) FROM __synctables_queued_items", path: path) == .integer(0))
        let indexes = "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = '__synctables_operations'"
        #expect(try Self.scalar(indexes, path: path) == .integer(0))
        withExtendedLifetime(directory) {}
    }

    @Test func aDeletedRowHandsItsPointerToTheSideTableAndTheOperationIsStillFound() async throws {
        let store = try SQLiteStore.inMemory()
        try await store.defineTable(TableDefinition(name: "T"))
        try await store.write { transaction in
            try transaction.upsert(table: "T", items: [["id": "a"], ["id": "b"], ["id": "c", "n": 1]])
            #expect(try transaction.queueNewOperations([Self.operation(1, "T", "a"), Self.operation(2, "T", "c")]))
        }
        try await store.write { transaction in
            try transaction.delete(table: "T", ids: ["a", "b"])
            try transaction.delete(StoreQuery(table: "T", filter: .comparison(.equal, .property("n"), .value(1))))
        }
        let found = try await store.write { transaction in
            try ["a", "b", "c"].map { try transaction.queuedOperation(table: "T", itemId: $0)?.sequence }
        }
        #expect(found == [1, nil, 2])
        let side = try await store.withDatabase { try $0.scalar("SELECT COUNT(*) FROM __synctables_queued_items") }
        #expect(side == .integer(2))

        // A new row for a queued item keeps the pointer where it is; removing the operation clears it.
        try await store.write { transaction in
            try transaction.upsert(table: "T", items: [["id": "a", "back": true]])
            #expect(try transaction.queuedOperation(table: "T", itemId: "a")?.sequence == 1)
            #expect(!(try transaction.queueNewOperations([Self.operation(3, "T", "a")])), "a is queued already")
            try transaction.removeQueuedOperations([Self.operation(1, "T", "a"), Self.operation(2, "T", "c")])
            #expect(try transaction.queuedOperation(table: "T", itemId: "a") == nil)
            #expect(try transaction.queueNewOperations([Self.operation(4, "T", "a")]), "the pointer is gone")
        }
        let pointers = try await store.withDatabase { database in
            (
                try database.scalar("SELECT COUNT(*) FROM __synctables_queued_items"),
                try database.scalar("SELECT _queued FROM T WHERE id = 'a'")
            )
        }
        #expect(pointers.0 == .integer(0))
        #expect(pointers.1 == .integer(4))
    }

    @Test func savingAnOperationWithANewSequenceMovesItsPointer() async throws {
        let store = try SQLiteStore.inMemory()
        try await store.defineTable(TableDefinition(name: "T"))
        try await store.write { transaction in
            try transaction.upsert(table: "T", items: [["id": "a"]])
            try transaction.saveQueuedOperations([Self.operation(5, "T", "a"), Self.operation(6, "U", "x")])
            try transaction.saveQueuedOperations([
                Self.operation(9, "T", "a", kind: .update), Self.operation(10, "U", "x", kind: .delete),
            ])
        }
        let state = try await store.write { transaction in
            (
                try transaction.queuedOperations(.all).map(\.sequence),
                try transaction.queuedOperation(table: "T", itemId: "a")?.kind,
                try transaction.queuedOperation(table: "U", itemId: "x")?.kind
            )
        }
        #expect(state.0 == [9, 10])
        #expect(state.1 == .update)
        #expect(state.2 == .delete)
    }

    @Test func aLayoutTwoFileGetsItsPointersAndItsQueueKeepsCollapsing() async throws {
        let (directory, path, context, todos) = try await Self.fileContext()
        try await todos.insert(ContextTodo(id: "a", text: "first"))
        try await todos.insert(ContextTodo(id: "b", text: "second"))
        try await todos.delete(id: "gone")
        let original = try await context.pendingOperations()
        let rows = try await context.store.read(StoreQuery(table: "ContextTodo"))
        try await context.close()

        // Back to layout 2: no pointer columns or side table, the queue with its unique index on the item,
        // every value in `_json`.
        let database = try Database(path: path)
        let columns = try database.prepare("PRAGMA table_info(ContextTodo)")
        var kept: [String] = []
        while try columns.step() {
            let name = columns.text(at: 1) ?? ""
            if name != "_queued" && name != "_kinds" { kept.append("\"\(name)\"") }
        }
        let list = kept.joined(separator: ", ")
        try database.execute(
            """
            ALTER TABLE ContextTodo RENAME TO ContextTodo_now;
            CREATE TABLE ContextTodo (id TEXT PRIMARY KEY NOT NULL, _json TEXT NOT NULL, \(kept.dropFirst(2).joined(separator: ", ")));
            INSERT INTO ContextTodo (\(list)) SELECT \(list) FROM ContextTodo_now;
            DROP TABLE ContextTodo_now;
            DROP TABLE __synctables_queued_items;
            ALTER TABLE __synctables_operations RENAME TO operations_now;
            \(SQLiteOperationTable.layoutTwoCreateSQL)
            DROP TABLE operations_now;
            """)
        try SQLiteOperationTable.insert(original, compact: false, in: database)
        for row in rows {
            try database.run(
                "UPDATE ContextTodo SET _json = ? WHERE id = ?",
                [.text(row.jsonString), .text(row["id"]?.stringValue ?? "")])
        }
        try database.setUserVersion(2)
        try database.close()

        let reopened = try await SyncContext(store: try SQLiteStore(path: path))
        #expect(try await reopened.pendingOperations() == original)
        let table = try await reopened.table(ContextTodo.self)
        try await table.update(ContextTodo(id: "a", text: "changed"))  // folds into the queued insert
        try await table.delete(id: "b")  // cancels the never-sent insert
        try await table.insert(ContextTodo(id: "gone", text: "again"))  // undoes the queued delete, in its place
        #expect(try await reopened.pendingOperations().map(\.itemId) == ["a", "gone"])
        #expect(try await reopened.pendingOperations().last?.kind == .insert)
        #expect(try await reopened.pendingOperations().first?.sequence == original.first?.sequence)
        try await reopened.close()
        #expect(try Self.scalar("SELECT COUNT(*) FROM __synctables_queued_items", path: path) == .integer(1))
        withExtendedLifetime(directory) {}
    }
}
