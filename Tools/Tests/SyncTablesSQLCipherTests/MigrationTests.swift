#if SQLCipher
    import Foundation
    @_spi(SyncTablesTools) @testable import SyncTables
    import SyncTablesSQLCipher
    import Testing

    /// Moving a store between plain and encrypted files with `sqlcipher_export`, verified by reading back.
    @Suite("Migrations between plain and encrypted files") struct MigrationTests {
        /// A plain store file with 200 items and their 200 pending insert operations, closed.
        private func makePlainStoreWithPendingOperations(path: String) async throws {
            let context = try await SyncContext(store: SQLiteStore(path: path))
            let todos = try await context.table(Todo.self)
            try await todos.insert(contentsOf: (0..<200).map { Todo(id: "todo\($0)", text: "Task \($0)") })
            #expect(try await context.pendingOperationCount() == 200)
            try await context.close()
        }

        @Test func encryptingAPlainStoreKeepsEveryRowAndPendingOperation() async throws {
            let directory = try TemporaryDirectory()
            let plainPath = directory.newDatabasePath()
            let encryptedPath = directory.newDatabasePath()
            try await makePlainStoreWithPendingOperations(path: plainPath)

            let counts = try EncryptedSQLiteStore.encryptPlainDatabase(
                at: plainPath, to: encryptedPath, key: .passphrase(Fixtures.passphrase))
            #expect(counts["Todo"] == 200)
            #expect(counts["__synctables_operations"] == 200)
            #expect(counts["__errors"] == 0)
            #expect(counts["__config"] != nil)

            let bytes = try Data(contentsOf: URL(fileURLWithPath: encryptedPath))
            #expect(!bytes.starts(with: Array("SQLite format 3".utf8)))
            let context = try await SyncContext(
                store: EncryptedSQLiteStore(path: encryptedPath, key: Fixtures.passphrase))
            let todos = try await context.table(Todo.self)
            #expect(try await todos.query().fetchCount() == 200)
            #expect(try await todos.lookup(id: "todo123")?.text == "Task 123")
            let operations = try await context.pendingOperations()
            #expect(operations.count == 200)
            #expect(Set(operations.map(\.itemId)).count == 200)
            try await context.close()
        }

        @Test func decryptingRestoresAPlainFileThatSQLiteStoreOpens() async throws {
            let directory = try TemporaryDirectory()
            let plainPath = directory.newDatabasePath()
            let encryptedPath = directory.newDatabasePath()
            let decryptedPath = directory.newDatabasePath()
            try await makePlainStoreWithPendingOperations(path: plainPath)
            try EncryptedSQLiteStore.encryptPlainDatabase(at: plainPath, to: encryptedPath, key: .raw(Fixtures.rawKey))

            let counts = try EncryptedSQLiteStore.decryptDatabase(
                at: encryptedPath, key: .raw(Fixtures.rawKey), to: decryptedPath)
            #expect(counts["Todo"] == 200 && counts["__synctables_operations"] == 200)

            let bytes = try Data(contentsOf: URL(fileURLWithPath: decryptedPath))
            #expect(bytes.starts(with: Array("SQLite format 3\0".utf8)))
            let context = try await SyncContext(store: SQLiteStore(path: decryptedPath))
            #expect(try await context.pendingOperationCount() == 200)
            #expect(try await context.table(Todo.self).lookup(id: "todo7")?.text == "Task 7")
            try await context.close()
        }

        @Test func decryptingWithTheWrongKeyThrowsWrongKeyAndCreatesNothing() async throws {
            let directory = try TemporaryDirectory()
            let encryptedPath = directory.newDatabasePath()
            let destination = directory.newDatabasePath()
            try await Fixtures.makeEncryptedFile(path: encryptedPath, key: .passphrase(Fixtures.passphrase))
            let before = try FileSnapshot(path: encryptedPath)

            #expect(throws: StoreError.wrongKey) {
                try EncryptedSQLiteStore.decryptDatabase(
                    at: encryptedPath, key: .passphrase(Fixtures.otherPassphrase), to: destination)
            }
            #expect(try FileSnapshot(path: encryptedPath) == before)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).count == 1)
        }

        @Test func encryptingAnAlreadyEncryptedFileThrowsKeyRequired() async throws {
            let directory = try TemporaryDirectory()
            let encryptedPath = directory.newDatabasePath()
            try await Fixtures.makeEncryptedFile(path: encryptedPath, key: .passphrase(Fixtures.passphrase))
            #expect(throws: StoreError.keyRequired) {
                try EncryptedSQLiteStore.encryptPlainDatabase(
                    at: encryptedPath, to: directory.newDatabasePath(), key: .passphrase(Fixtures.passphrase))
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).count == 1)
        }

        @Test func anExistingDestinationIsNeverOverwritten() async throws {
            let directory = try TemporaryDirectory()
            let plainPath = directory.newDatabasePath()
            let destination = directory.newDatabasePath()
            try await makePlainStoreWithPendingOperations(path: plainPath)
            try Data("keep me".utf8).write(to: URL(fileURLWithPath: destination))

            #expect {
                try EncryptedSQLiteStore.encryptPlainDatabase(
                    at: plainPath, to: destination, key: .passphrase(Fixtures.passphrase))
            } throws: { error in
                guard case StoreError.cannotOpen(let path, _) = error else { return false }
                return path == destination
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: destination)) == Data("keep me".utf8))
        }
    }
#endif
