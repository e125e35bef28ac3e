#if SQLCipher
    import Foundation
    @_spi(SyncTablesTools) @testable import SyncTables
    import SyncTablesSQLCipher
    import Testing

    /// Changing the key of an open store in place.
    @Suite("Rekeying") struct RekeyTests {
        @Test func afterRekeyTheNewKeyOpensTheFileAndTheOldOneIsWrong() async throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            try await Fixtures.makeEncryptedFile(path: path, key: .passphrase(Fixtures.passphrase), count: 300)

            let store = try EncryptedSQLiteStore(path: path, key: Fixtures.passphrase)
            try await store.rekey(to: Fixtures.otherPassphrase)
            // The open store keeps working on the re-encrypted file, lookups included.
            #expect(try await store.count(StoreQuery(table: "T")) == 300)
            #expect(try await store.lookup(table: "T", id: "item7") == Fixtures.items(count: 300)[7])
            try await store.write { try $0.upsert(table: "T", items: [JSONObject(["id": .string("after")])]) }
            try await store.close()

            #expect(throws: StoreError.wrongKey) {
                _ = try EncryptedSQLiteStore(path: path, key: Fixtures.passphrase)
            }
            let reopened = try EncryptedSQLiteStore(path: path, key: Fixtures.otherPassphrase)
            #expect(try await reopened.count(StoreQuery(table: "T")) == 301)
            #expect(try await reopened.lookup(table: "T", id: "item299") == Fixtures.items(count: 300)[299])
            try await reopened.close()
        }

        @Test func rekeyFromAPassphraseToARawKeyAndBack() async throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            try await Fixtures.makeEncryptedFile(path: path, key: .passphrase(Fixtures.passphrase), count: 50)

            let store = try EncryptedSQLiteStore(path: path, key: Fixtures.passphrase)
            try await store.rekey(to: .raw(Fixtures.rawKey))
            try await store.close()
            let raw = try EncryptedSQLiteStore(path: path, rawKey: Fixtures.rawKey)
            #expect(try await raw.count(StoreQuery(table: "T")) == 50)
            try await raw.rekey(to: Fixtures.passphrase)
            try await raw.close()

            #expect(throws: StoreError.wrongKey) { _ = try EncryptedSQLiteStore(path: path, rawKey: Fixtures.rawKey) }
            let back = try EncryptedSQLiteStore(path: path, key: Fixtures.passphrase)
            #expect(try await back.count(StoreQuery(table: "T")) == 50)
            try await back.close()
        }

        @Test func rekeyToAnEmptyPassphraseIsRefusedAndTheOldKeyStillOpens() async throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            try await Fixtures.makeEncryptedFile(path: path, key: .passphrase(Fixtures.passphrase), count: 5)
            let store = try EncryptedSQLiteStore(path: path, key: Fixtures.passphrase)
            await #expect {
                try await store.rekey(to: "")
            } throws: { error in
                if case StoreError.invalidKey = error { return true }
                return false
            }
            try await store.close()
            let reopened = try EncryptedSQLiteStore(path: path, key: Fixtures.passphrase)
            #expect(try await reopened.count(StoreQuery(table: "T")) == 5)
            try await reopened.close()
        }
    }
#endif
