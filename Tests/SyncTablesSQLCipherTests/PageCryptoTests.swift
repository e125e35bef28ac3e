#if SQLCipher
    import Foundation
    import SyncTables
    import SyncTablesSQLite
    import Testing

    @testable import SyncTablesSQLCipher

    /// SyncTables' page crypto provider: in use on SQLCipher 3.4, and byte for byte what SQLCipher's own
    /// provider reads and writes (the `sqlcipher` tool runs SQLCipher's own provider in its own process).
    @Suite struct PageCryptoTests {
        /// 3,000 rows of about 200 bytes: several hundred pages, each encrypted and authenticated on its own.
        private static let rowCount = 3_000
        private static let fillRows = """
            CREATE TABLE filler(n INTEGER PRIMARY KEY, t TEXT);
            WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < \(rowCount))
            INSERT INTO filler SELECT n, printf('%.200c-%d', 'x', n) FROM k;
            """
        /// `count(*)`, the total text length and the sum of the keys, as one text.
        private static let summary = "SELECT count(*) || ':' || sum(length(t)) || ':' || sum(n) FROM filler"
        private static let expectedSummary: String = {
            let lengths = (1...rowCount).reduce(0) { $0 + 201 + String($1).count }
            return "\(rowCount):\(lengths):\(rowCount * (rowCount + 1) / 2)"
        }()

        /// A connection keyed the way every store connection is.
        private func openKeyed(_ path: String) throws -> Database {
            let database = try Database(path: path)
            try CipherSettings.unlock(database, key: .passphrase(Fixtures.passphrase), path: path)
            return database
        }

        @Test func theProviderServesEveryKeyedConnectionOnLinuxWithSQLCipher34() throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            let database = try openKeyed(path)
            defer { try? database.close() }
            guard case .text(let version) = try database.scalar("PRAGMA cipher_version") else {
                Issue.record("PRAGMA cipher_version gave no text")
                return
            }
            #if os(Linux)
                let expected = version.hasPrefix("3.4.")
            #else
                let expected = false  // built only on Linux
            #endif
            #expect(PageCrypto.isRegistered == expected, "SQLCipher \(version)")
            #expect(PageCrypto.isInstalled == PageCrypto.isRegistered)
            #expect(try database.scalar("PRAGMA cipher") == .text("AES-256-CBC"))
        }

        @Test func pagesTheSqlcipherToolWroteReadBackWithEveryHMACChecked() async throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            let output = try await CommandLineTool.sqlcipher(on: path, after: Self.fillRows)
            #expect(output.status == 0, "\(output.standardError)")

            let database = try openKeyed(path)
            defer { try? database.close() }
            // integrity_check reads every page, so every page's HMAC is checked and its content decrypted.
            #expect(try database.scalar("PRAGMA integrity_check") == .text("ok"))
            #expect(try database.scalar(Self.summary) == .text(Self.expectedSummary))
        }

        @Test func pagesTheProviderWroteReadBackInTheSqlcipherTool() async throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            let database = try openKeyed(path)
            for statement in Self.fillRows.split(separator: ";").map(String.init)
            where !statement.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                try database.execute(statement)
            }
            try database.close()

            let output = try await CommandLineTool.sqlcipher(
                on: path, after: "PRAGMA integrity_check;\n\(Self.summary);")
            #expect(output.status == 0, "\(output.standardError)")
            #expect(output.standardOutput == "ok\n\(Self.expectedSummary)\n", "\(output.standardError)")
        }

        @Test func aChangedByteInAPageFailsItsHMACCheckAndNoAlteredRowIsRead() async throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            try await Fixtures.makeEncryptedFile(path: path, key: .passphrase(Fixtures.passphrase), count: 2_000)
            let pageSize = UInt64(CipherSettings.pageSize)
            let pageCount =
                try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? UInt64)
                / pageSize
            #expect(pageCount > 8)
            // A byte inside the encrypted content of a page past the schema's.
            let offset = (pageCount / 2) * pageSize + 100
            try flipByte(at: offset, in: path)

            let store = try EncryptedSQLiteStore(path: path, key: Fixtures.passphrase)
            await #expect(throws: StoreError.self) { try await store.read(StoreQuery(table: "T")) }
            try await store.close()

            // The same byte put back: every row reads again, so the failure was that page's check.
            try flipByte(at: offset, in: path)
            let restored = try EncryptedSQLiteStore(path: path, key: Fixtures.passphrase)
            #expect(try await restored.read(StoreQuery(table: "T")).count == 2_000)
            try await restored.close()
        }

        @Test func everyPageOfAFileHasAnIVOfItsOwn() async throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            try await Fixtures.makeEncryptedFile(path: path, key: .passphrase(Fixtures.passphrase), count: 2_000)
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let pageSize = CipherSettings.pageSize
            #expect(bytes.count % pageSize == 0)
            // SQLCipher 3.4 with HMAC reserves 48 bytes at the end of each page, the 16-byte IV first.
            let ivs = stride(from: 0, to: bytes.count, by: pageSize).map { start in
                Array(bytes[(start + pageSize - 48)..<(start + pageSize - 32)])
            }
            #expect(ivs.count > 8)
            #expect(Set(ivs).count == ivs.count, "an IV was used for two pages")
            #expect(!ivs.contains(Array(repeating: 0, count: 16)))
        }

        private func flipByte(at offset: UInt64, in path: String) throws {
            let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            try handle.seek(toOffset: offset)
            let byte = try #require(try handle.read(upToCount: 1)?.first)
            try handle.seek(toOffset: offset)
            try handle.write(contentsOf: [byte ^ 0x5A])
        }
    }
#endif
