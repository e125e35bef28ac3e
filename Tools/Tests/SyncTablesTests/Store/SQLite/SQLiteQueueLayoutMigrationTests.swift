import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@_spi(SyncTablesTools) @testable import SyncTablesSQLite

/// Catalog layout 1 kept the operation queue as JSON rows of `__operations`; opening such a file moves
/// them into `__synctables_operations` once, in one transaction. Layouts 2 to 4 spelled each operation's id,
/// kind and state as text; opening such a file rewrites the queue in the compact form of layout 5.
@Suite("SQLite queue layout migration")
struct SQLiteQueueLayoutMigrationTests {
    /// Writes a file in layout 1: the queue as `__operations` JSON rows (through the generic table API,
    /// exactly as version 1 wrote them), no relational queue table, `user_version` 1.
    private func makeLayoutOneFile(path: String, operations: [PendingOperation], extraRows: [JSONObject] = [])
        async throws
    {
        let store = try SQLiteStore(path: path)
        let rows = operations.map(\.row) + extraRows
        try await store.write { transaction in
            try transaction.removeQueuedOperations(try transaction.queuedOperations(.all))
            try transaction.defineTable(SystemTables.operationsDefinition)
            try transaction.upsert(table: SystemTables.operations, items: rows)
        }
        try await store.close()
        let database = try Database(path: path)
        // Version 1 kept every value in `_json` (today's store keeps each value in its column only).
        for row in rows {
            guard case .string(let id)? = row["id"] else { continue }
            try database.run(
                "UPDATE \"\(SystemTables.operations)\" SET _json = ?, _kinds = NULL WHERE id = ?",
                [.text(row.jsonString), .text(id)])
        }
        try database.execute("DROP TABLE __synctables_operations")
        try database.setUserVersion(1)
        try database.close()
    }

    private func queueWithEveryKind(path: String) async throws -> [PendingOperation] {
        let context = try await SyncContext(store: try SQLiteStore(path: path))
        let todos = try await context.table(ContextTodo.self)
        try await todos.insert(ContextTodo(id: "a", text: "first"))
        try await todos.insert(ContextTodo(id: "b", text: "it's \"quoted\""))
        try await context.store.write { try $0.upsert(table: "ContextTodo", items: [["id": "pulled", "text": "p"]]) }
        try await todos.update(ContextTodo(id: "pulled", text: "changed"))
        try await todos.delete(id: "gone")
        let operations = try await context.pendingOperations()
        try await context.store.close()
        return operations
    }

    @Test func aLayoutOneQueueMovesOverWithEveryFieldAndOrder() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.newDatabasePath()
        let original = try await queueWithEveryKind(path: path)
        #expect(Set(original.map(\.kind)) == [.insert, .update, .delete])
        try await makeLayoutOneFile(path: path, operations: original)
        // What version 1 stored: its JSON rows carry createdAt as ISO-8601 text, and no ancestors.
        let expected = try original.map { operation in
            var stored = try PendingOperation(row: operation.row)
            stored.ancestor = nil
            return stored
        }

        let reopened = try await SyncContext(store: try SQLiteStore(path: path))
        #expect(try await reopened.pendingOperations() == expected)
        #expect(try await reopened.store.tableDefinitions().map(\.name).contains("__operations") == false)
        let todos = try await reopened.table(ContextTodo.self)
        try await todos.insert(ContextTodo(id: "c", text: "after"))
        let sequences = try await reopened.pendingOperations().map(\.sequence)
        #expect(sequences.last! > original.map(\.sequence).max()!)
        // The moved queue still collapses: deleting the moved insert cancels it.
        try await todos.delete(id: "a")
        #expect(try await reopened.pendingOperations().map(\.itemId) == ["b", "pulled", "gone", "c"])
        try await reopened.store.close()

        let database = try Database(path: path)
        #expect(try database.userVersion() == SQLiteCatalog.currentVersion)
        #expect(try database.scalar("SELECT COUNT(*) FROM sqlite_master WHERE name = '__operations'") == .integer(0))
        #expect(
            try database.scalar("SELECT COUNT(*) FROM __synctables_tables WHERE key = '__operations'") == .integer(0))
        try database.close()
    }

    /// Rewrites the queue of a current file as layout 4 wrote it: id, kind and state as text.
    private func rewriteQueueInLayoutFour(path: String, extraRows: [PendingOperation] = []) throws {
        let database = try Database(path: path)
        let rows = try database.prepare(
            "SELECT \(SQLiteOperationTable.columns) FROM \(SQLiteOperationTable.name) ORDER BY sequence")
        var operations: [PendingOperation] = []
        while try rows.step() { operations.append(try SQLiteOperationTable.operation(from: rows)) }
        rows.reset()
        try database.execute(
            "DROP TABLE \(SQLiteOperationTable.name); \(SQLiteOperationTable.layoutFourCreateSQL)")
        try SQLiteOperationTable.insert(operations + extraRows, compact: false, in: database)
        try database.setUserVersion(4)
        try database.close()
    }

    @Test func aLayoutFourQueueIsRewrittenCompactWithEveryFieldAndOrder() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.newDatabasePath()
        var original = try await queueWithEveryKind(path: path)
        // Every state, and an id that is not a lowercase UUID, come back exactly.
        let store = try SQLiteStore(path: path)
        original[0].state = .failed
        original[1].state = .attempted
        original[1].attempts = 2
        original[2].state = .dead
        // Layout 4 kept no ancestors.
        for index in original.indices { original[index].ancestor = nil }
        let changed = Array(original.prefix(3))
        try await store.write { try $0.saveQueuedOperations(changed) }
        try await store.close()
        let foreign = PendingOperation(
            id: "6F9619FF-8B86-D011-B42D-00C04FC964FF", sequence: 100, kind: .delete, table: "ContextTodo",
            itemId: "imported", item: ["id": "imported"], state: .pending, version: 3,
            createdAt: original[0].createdAt, attempts: 0)
        try rewriteQueueInLayoutFour(path: path, extraRows: [foreign])

        let reopened = try await SyncContext(store: try SQLiteStore(path: path))
        #expect(try await reopened.pendingOperations() == original + [foreign])
        // A selection by operation id finds both spellings.
        for id in [original[3].id, foreign.id] {
            let found = try await reopened.store.write { try $0.queuedOperations(OperationSelection(operationId: id)) }
            #expect(found.map(\.id) == [id])
        }
        try await reopened.store.close()

        let database = try Database(path: path)
        #expect(try database.userVersion() == SQLiteCatalog.currentVersion)
        let types = try database.prepare(
            "SELECT typeof(operation_id), typeof(kind), typeof(state) FROM \(SQLiteOperationTable.name) ORDER BY sequence"
        )
        var rows: [[String]] = []
        while try types.step() { rows.append((0..<3).map { types.text(at: Int32($0)) ?? "" }) }
        types.reset()
        #expect(rows.dropLast().allSatisfy { $0 == ["blob", "integer", "integer"] })
        #expect(rows.last == ["text", "integer", "integer"])
        try database.close()
    }

    @Test func anUnreadableLayoutFourRowRefusesToOpenAndChangesNothing() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.newDatabasePath()
        let original = try await queueWithEveryKind(path: path)
        try rewriteQueueInLayoutFour(path: path)
        let database = try Database(path: path)
        try database.run(
            "UPDATE \(SQLiteOperationTable.name) SET kind = 'explode' WHERE sequence = ?",
            [.integer(Int64(original[1].sequence))])
        try database.close()

        #expect(throws: SyncError.self) { try SQLiteStore(path: path) }

        let after = try Database(path: path)
        #expect(try after.userVersion() == 4)
        #expect(
            try after.scalar(
                "SELECT kind FROM \(SQLiteOperationTable.name) WHERE sequence = ?",
                [.integer(Int64(original[0].sequence))])
                == .text("insert"))
        #expect(
            try after.scalar("SELECT COUNT(*) FROM \(SQLiteOperationTable.name)") == .integer(Int64(original.count)))
        try after.close()
    }

    @Test(arguments: [
        ("0f8fad5b-d9cb-469f-a165-70867728950e", true), ("0F8FAD5B-D9CB-469F-A165-70867728950E", false),
        ("0f8fad5b-d9cb-469f-a165-70867728950", false), ("0f8fad5b-d9cb-469f-a165-70867728950e0", false),
        ("0f8fad5bd9cb469fa16570867728950e", false), ("0f8fad5b-d9cb-469f-a165_70867728950e", false),
        ("op-1", false), ("", false), ("0f8fad5b-d9cb-469f-a165-70867728950é", false),
    ])
    func anOperationIdIsKeptAsBytesOnlyWhenItsTextComesBackTheSame(id: String, asBytes: Bool) {
        let stored = SQLiteOperationTable.storedID(id)
        if case .blob(let bytes) = stored {
            #expect(asBytes)
            #expect(bytes.count == 16)
        } else {
            #expect(!asBytes)
            #expect(stored == .text(id))
        }
        #expect(SQLiteOperationTable.operationID(from: stored) == id)
    }

    @Test func anUnreadableLayoutOneRowRefusesToOpenAndChangesNothing() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.newDatabasePath()
        let original = try await queueWithEveryKind(path: path)
        var broken = original[0].row
        broken["id"] = "ContextTodo|broken"
        broken["kind"] = "explode"
        try await makeLayoutOneFile(path: path, operations: original, extraRows: [broken])

        #expect(throws: SyncError.self) { try SQLiteStore(path: path) }

        let database = try Database(path: path)
        #expect(try database.userVersion() == 1)
        #expect(try database.scalar("SELECT COUNT(*) FROM \"__operations\"") == .integer(Int64(original.count + 1)))
        #expect(
            try database.scalar("SELECT COUNT(*) FROM sqlite_master WHERE name = '__synctables_operations'")
                == .integer(0))
        try database.close()
    }
}
