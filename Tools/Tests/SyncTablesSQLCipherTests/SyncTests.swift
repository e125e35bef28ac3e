#if SQLCipher
    import Foundation
    @_spi(SyncTablesTools) @testable import SyncTables
    import SyncTablesSQLCipher
    import SyncTablesServer
    import Testing

    /// A `SyncContext` on encrypted stores pushes to and pulls from a real `sync-server` over HTTP.
    @Suite("Sync on encrypted stores") struct SyncTests {
        @Test func twoDevicesOnEncryptedStoresSyncThroughTheServer() async throws {
            let server = try await SyncServer(configuration: SyncServerConfiguration(storage: .inMemory))
            try await server.start()
            try await server.stopping {
                let url = try #require(server.url)
                let directory = try TemporaryDirectory()
                let firstPath = directory.newDatabasePath()
                let first = try await SyncContext(
                    store: EncryptedSQLiteStore(path: firstPath, key: Fixtures.passphrase), client: SyncClient(url: url)
                )
                let firstTodos = try await first.table(Todo.self)
                try await firstTodos.insert(contentsOf: (0..<30).map { Todo(id: "todo\($0)", text: "Task \($0)") })
                try await firstTodos.update(Todo(id: "todo0", text: "Task 0, edited"))
                try await first.push()
                #expect(try await first.pendingOperationCount() == 0)

                let second = try await SyncContext(
                    store: EncryptedSQLiteStore(path: directory.newDatabasePath(), rawKey: Fixtures.rawKey),
                    client: SyncClient(url: url))
                let secondTodos = try await second.table(Todo.self)
                try await secondTodos.pull()
                #expect(try await secondTodos.query().fetchCount() == 30)
                let pulled = try #require(try await secondTodos.lookup(id: "todo0"))
                #expect(pulled.text == "Task 0, edited" && pulled.version != nil)

                var done = try #require(try await secondTodos.lookup(id: "todo1"))
                done.complete = true
                try await secondTodos.update(done)
                try await second.push()
                try await firstTodos.pull(firstTodos.query(), queryId: "all")
                #expect(try await firstTodos.lookup(id: "todo1")?.complete == true)
                try await first.close()
                try await second.close()

                // The first device's file is still encrypted and opens only with its key.
                #expect(throws: StoreError.wrongKey) {
                    _ = try EncryptedSQLiteStore(path: firstPath, key: Fixtures.otherPassphrase)
                }
            }
        }
    }
#endif
