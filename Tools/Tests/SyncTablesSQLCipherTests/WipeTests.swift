#if SQLCipher
    import Foundation
    @_spi(SyncTablesTools) @testable import SyncTables
    import SyncTablesSQLCipher
    import Testing

    /// A sign-out wipe on an encrypted store keeps the store and its key usable for the next user.
    @Suite("Wipe on encrypted stores") struct WipeTests {
        @Test func wipeEmptiesAnEncryptedStoreThatStillOpensWithItsKey() async throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            let context = try await SyncContext(store: EncryptedSQLiteStore(path: path, key: Fixtures.passphrase))
            let todos = try await context.table(Todo.self)
            try await todos.insert(contentsOf: (0..<20).map { Todo(id: "todo\($0)", text: "Task \($0)") })

            let summary = try await context.wipe()
            try await context.close()

            #expect(summary.rows == 20 && summary.operations == 20)
            let reopened = try await SyncContext(store: EncryptedSQLiteStore(path: path, key: Fixtures.passphrase))
            let again = try await reopened.table(Todo.self)
            #expect(try await again.query().fetchCount() == 0)
            #expect(try await reopened.pendingOperationCount() == 0)
            try await again.insert(Todo(id: "next", text: "the next user's"))
            #expect(try await reopened.pendingOperationCount() == 1)
            try await reopened.close()
        }
    }
#endif
