#if SQLCipher
    import Foundation
    @_spi(SyncTablesTools) @testable import SyncTables
    import SyncTablesSQLCipher
    import Testing

    /// Opening an encrypted store: the key is proven at once, every way of failing has its own error, and a
    /// failed open leaves the file byte for byte as it was.
    @Suite("Opening encrypted stores") struct OpeningTests {
        @Test func theRightPassphraseReopensTheStoreWithItsRows() async throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            try await Fixtures.makeEncryptedFile(path: path, key: .passphrase(Fixtures.passphrase), count: 10)

            let store = try EncryptedSQLiteStore(path: path, key: Fixtures.passphrase)
            #expect(try await store.count(StoreQuery(table: "T")) == 10)
            #expect(try await store.lookup(table: "T", id: "item3") == Fixtures.items(count: 10)[3])
            try await store.close()
        }

        @Test func theRightRawKeyReopensTheStoreWithItsRows() async throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            try await Fixtures.makeEncryptedFile(path: path, key: .raw(Fixtures.rawKey), count: 10)

            let store = try EncryptedSQLiteStore(path: path, rawKey: Data(Fixtures.rawKey))
            #expect(try await store.count(StoreQuery(table: "T")) == 10)
            try await store.close()
        }

        @Test func passphraseBytesOpenWhatTheSamePassphraseTextCreated() async throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            try await Fixtures.makeEncryptedFile(path: path, key: .passphrase(Fixtures.passphrase), count: 3)

            let store = try EncryptedSQLiteStore(path: path, passphrase: Array(Fixtures.passphrase.utf8))
            #expect(try await store.count(StoreQuery(table: "T")) == 3)
            try await store.close()
        }

        @Test func aWrongPassphraseThrowsWrongKeyAndLeavesTheFileUnchanged() async throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            try await Fixtures.makeEncryptedFile(path: path, key: .passphrase(Fixtures.passphrase))
            let before = try FileSnapshot(path: path)

            #expect(throws: StoreError.wrongKey) {
                _ = try EncryptedSQLiteStore(path: path, key: Fixtures.otherPassphrase)
            }
            #expect(try FileSnapshot(path: path) == before)
        }

        @Test func aWrongRawKeyThrowsWrongKeyAndLeavesTheFileUnchanged() async throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            try await Fixtures.makeEncryptedFile(path: path, key: .raw(Fixtures.rawKey))
            let before = try FileSnapshot(path: path)

            var otherKey = Fixtures.rawKey
            otherKey[31] ^= 1
            #expect(throws: StoreError.wrongKey) {
                _ = try EncryptedSQLiteStore(path: path, rawKey: otherKey)
            }
            #expect(throws: StoreError.wrongKey) {
                _ = try EncryptedSQLiteStore(path: path, key: Fixtures.passphrase)
            }
            #expect(try FileSnapshot(path: path) == before)
        }

        @Test func anEncryptedFileOpenedWithoutAKeyThrowsKeyRequiredAndIsUnchanged() async throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            try await Fixtures.makeEncryptedFile(path: path, key: .passphrase(Fixtures.passphrase))
            let before = try FileSnapshot(path: path)

            #expect(throws: StoreError.keyRequired) {
                _ = try SQLiteStore(path: path)
            }
            #expect(try FileSnapshot(path: path) == before)
        }

        @Test func aKeyGivenForAPlainDatabaseThrowsNotEncryptedAndLeavesItUnchanged() async throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            let plain = try SQLiteStore(path: path)
            try await plain.defineTable(TableDefinition(name: "T"))
            let rows = Fixtures.items(count: 20)
            try await plain.write { try $0.upsert(table: "T", items: rows) }
            try await plain.close()
            let before = try FileSnapshot(path: path)

            #expect(throws: StoreError.notEncrypted) {
                _ = try EncryptedSQLiteStore(path: path, key: Fixtures.passphrase)
            }
            #expect(throws: StoreError.notEncrypted) {
                _ = try EncryptedSQLiteStore(path: path, rawKey: Fixtures.rawKey)
            }
            #expect(try FileSnapshot(path: path) == before)
        }

        @Test func aTruncatedEncryptedFileThrowsTruncatedAndIsUnchanged() async throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            try await Fixtures.makeEncryptedFile(path: path, key: .passphrase(Fixtures.passphrase), count: 2_000)
            let full = try Data(contentsOf: URL(fileURLWithPath: path))
            // Cut mid-page, past the first page: the key still opens page 1, later pages are missing.
            let cut = full.prefix(full.count / 2 + 100)
            try cut.write(to: URL(fileURLWithPath: path))
            let before = try FileSnapshot(path: path)

            #expect {
                _ = try EncryptedSQLiteStore(path: path, key: Fixtures.passphrase)
            } throws: { error in
                if case StoreError.truncated = error { return true }
                return false
            }
            #expect(try FileSnapshot(path: path) == before)
        }

        @Test func aFileOfRandomBytesThrowsCorruptAndIsUnchanged() throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            var generator = SystemRandomNumberGenerator()
            // Not a whole number of pages; a whole number would be indistinguishable from a wrong key.
            let bytes = Data((0..<10_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
            try bytes.write(to: URL(fileURLWithPath: path))
            let before = try FileSnapshot(path: path)

            #expect {
                _ = try EncryptedSQLiteStore(path: path, key: Fixtures.passphrase)
            } throws: { error in
                if case StoreError.corrupt = error { return true }
                return false
            }
            #expect(try FileSnapshot(path: path) == before)
        }

        @Test func anEmptyPassphraseIsRefusedBeforeTheFileIsCreated() throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            #expect {
                _ = try EncryptedSQLiteStore(path: path, key: "")
            } throws: { error in
                if case StoreError.invalidKey = error { return true }
                return false
            }
            #expect(!FileManager.default.fileExists(atPath: path))
        }

        @Test(arguments: [0, 16, 31, 33, 64])
        func aRawKeyOfTheWrongLengthIsRefused(length: Int) throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            #expect {
                _ = try EncryptedSQLiteStore(path: path, rawKey: [UInt8](repeating: 0xAB, count: length))
            } throws: { error in
                guard case StoreError.invalidKey(let reason) = error else { return false }
                return reason.contains("\(length)") && !reason.lowercased().contains("ab")
            }
            #expect(!FileManager.default.fileExists(atPath: path))
        }

        @Test func aPassphraseWrittenLikeARawKeyLiteralIsRefused() throws {
            let directory = try TemporaryDirectory()
            #expect {
                _ = try EncryptedSQLiteStore(path: directory.newDatabasePath(), key: "x'00112233'")
            } throws: { error in
                if case StoreError.invalidKey = error { return true }
                return false
            }
        }

        @Test func aNewFileCreatedWithAKeyHasNoPlainHeader() async throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            let store = try EncryptedSQLiteStore(path: path, rawKey: Fixtures.rawKey)
            try await store.defineTable(TableDefinition(name: "T"))
            try await store.close()

            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(bytes.count > 0 && bytes.count % 4096 == 0)
            #expect(!bytes.starts(with: Array("SQLite format 3\0".utf8)))
        }
    }
#endif
