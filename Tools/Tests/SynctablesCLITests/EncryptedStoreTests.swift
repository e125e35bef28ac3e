#if SQLCipher
    import Foundation
    @_spi(SyncTablesTools) @testable import SyncTables
    import SyncTablesSQLCipher
    import Testing

    @Suite("synctables on encrypted stores")
    struct EncryptedStoreTests {
        private static let key = "correct horse battery staple"

        /// An encrypted store with two pulled rows and one pending local insert.
        private func makeEncryptedStore(_ harness: CLIHarness) async throws -> String {
            try await harness.seed("todo", [["id": "a"], ["id": "b"]])
            let path = harness.newStorePath("encrypted")
            let store = try EncryptedSQLiteStore(path: path, key: Self.key)
            let context = try await SyncContext(store: store, client: SyncClient(url: harness.url))
            let todo = try await context.table(JSONObject.self, named: "todo")
            try await todo.pull(queryId: "all")
            _ = try await todo.insert(["id": "local"])
            try await context.close()
            return path
        }

        @Test func theRightKeyFromAnOptionAFileOrTheEnvironmentOpensTheStore() async throws {
            try await CLIHarness.with { harness in
                let path = try await makeEncryptedStore(harness)
                let keyFile = harness.directory.appendingPathComponent("key").path
                try (Self.key + "\n").write(toFile: keyFile, atomically: true, encoding: .utf8)

                let runs = [
                    try await harness.run(["status", "--json", "--key", Self.key], store: path),
                    try await harness.run(["status", "--json", "--key-file", keyFile], store: path),
                    try await harness.run(
                        ["status", "--json"], store: path, environment: ["SYNCTABLES_KEY": Self.key]),
                ]

                for run in runs {
                    #expect(run.status == 0, "\(run.stderr)")
                    let todo = try #require(try run.json.objects("tables").first)
                    #expect(todo["rows"] == 3 && todo["pendingOperations"] == 1)
                }
            }
        }

        @Test func pushAndAForcedPurgeWriteThroughTheKey() async throws {
            try await CLIHarness.with { harness in
                let path = try await makeEncryptedStore(harness)

                let push = try await harness.run(["push", "--json", "--key", Self.key], store: path, server: true)
                let purge = try await harness.run(["purge", "todo", "--json", "--key", Self.key], store: path)

                #expect(push.status == 0, "\(push.stderr)")
                #expect(try push.json["pushedOperations"] == 1)
                #expect(purge.status == 0, "\(purge.stderr)")
                #expect(try purge.json.objects("tables").first?["rows"] == 3)
                let store = try EncryptedSQLiteStore(path: path, key: Self.key)
                #expect(try await store.count(StoreQuery(table: "todo")) == 0)
                try await store.close()
            }
        }

        @Test func aWrongKeyOrNoKeyExits9AndLeavesTheFileByteForByteAsItWas() async throws {
            try await CLIHarness.with { harness in
                let path = try await makeEncryptedStore(harness)
                let before = try Data(contentsOf: URL(fileURLWithPath: path))

                let wrong = try await harness.run(["purge", "todo", "--force", "--key", "wrong"], store: path)
                let missing = try await harness.run(["purge", "todo", "--force", "--json"], store: path)

                #expect(wrong.status == 9)
                #expect(wrong.stderrLines.count == 1 && wrong.stderr.contains("key does not open"))
                #expect(missing.status == 9)
                #expect(missing.stderrLines.count == 1 && missing.stderr.contains("encrypted"))
                #expect(try missing.json["error"]?.objectValue?["kind"] == "wrongKey")
                #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
            }
        }

        @Test func aKeyForAPlainStoreExits9AndTheStoreStaysPlain() async throws {
            try await CLIHarness.with { harness in
                let path = harness.newStorePath()
                try await harness.withContext(path) {
                    _ = try await $0.table(JSONObject.self, named: "todo").insert(["id": "a"])
                }

                let run = try await harness.run(["status", "--key", Self.key], store: path)

                #expect(run.status == 9)
                #expect(run.stderrLines.count == 1 && run.stderr.contains("not encrypted"))
                #expect(try await rows("todo", in: path).count == 1)
            }
        }
    }
#endif
