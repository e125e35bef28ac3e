#if SQLCipher
    import Foundation
    @_spi(SyncTablesTools) @testable import SyncTables
    import SyncTablesSQLCipher
    import Testing

    /// Key material never shows up in descriptions, dumps or errors.
    @Suite("Key hygiene") struct KeyHygieneTests {
        private static let secret = "s3cret-passphrase-do-not-print"

        private func dumped(_ value: some Any) -> String {
            var text = ""
            dump(value, to: &text)
            return text
        }

        @Test func aPassphraseKeyNeverPrintsItsText() throws {
            let key = try EncryptionKey.passphrase(Self.secret)
            for text in [key.description, key.debugDescription, String(reflecting: key), "\(key)", dumped(key)] {
                #expect(!text.contains(Self.secret) && !text.contains("s3cret"), "\(text)")
                #expect(text.contains("redacted"))
            }
        }

        @Test func aRawKeyNeverPrintsItsBytesOrTheirHex() throws {
            let key = try EncryptionKey.raw(Fixtures.rawKey)
            let hex = Fixtures.rawKey.map { String(format: "%02X", $0) }.joined()
            for text in [key.description, key.debugDescription, dumped(key)] {
                #expect(!text.uppercased().contains(hex.prefix(8)), "\(text)")
                #expect(!text.contains("\(Fixtures.rawKey[0]), \(Fixtures.rawKey[1])"), "\(text)")
            }
        }

        @Test func errorsOfAWrongKeyOpenDoNotContainTheKey() async throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            try await Fixtures.makeEncryptedFile(path: path, key: .passphrase(Fixtures.passphrase))
            do {
                _ = try EncryptedSQLiteStore(path: path, key: Self.secret)
                Issue.record("a wrong key opened the store")
            } catch {
                let texts = ["\(error)", String(reflecting: error), error.localizedDescription, dumped(error)]
                for text in texts { #expect(!text.contains("s3cret"), "\(text)") }
                #expect("\(error)".contains("key does not open"))
            }
        }

        @Test func aStoreDescribesItselfByPathOnly() throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            let store = try EncryptedSQLiteStore(path: path, key: Self.secret)
            #expect(store.description == "EncryptedSQLiteStore(\(path))")
            #expect(!dumped(store).contains("s3cret"))
        }
    }
#endif
