import Foundation
import SyncTablesSQLite
import Testing

@testable import SyncTables

/// Catalog layout 1 kept the operation queue as JSON rows of `__operations`; opening such a file moves
/// them into `__synctables_operations` once, in one transaction.
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
        // What version 1 stored: its JSON rows carry createdAt as ISO-8601 text.
        let expected = try original.map { try PendingOperation(row: $0.row) }

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
