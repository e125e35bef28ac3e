#if SQLCipher
    import Foundation
    @_spi(SyncTablesTools) @testable import SyncTables
    import SyncTablesSQLCipher
    import Testing

    /// What an encrypted file reveals on disk, and which tools can read it.
    @Suite("Encrypted file contents") struct FileContentsTests {
        private static let marker = "MARKER-7f3a9c-Buy-milk"

        /// An encrypted file with 500 rows whose text contains ``marker``, closed.
        private func makeFile(key: EncryptionKey) async throws -> (TemporaryDirectory, String) {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            let store = try EncryptedSQLiteStore(path: path, key: key)
            try await store.defineTable(TableDefinition(name: "TodoItem", indexes: [["text"]]))
            let rows = Fixtures.items(count: 500, marker: Self.marker)
            try await store.write { try $0.upsert(table: "TodoItem", items: rows) }
            try await store.close()
            return (directory, path)
        }

        @Test func theClosedFileContainsNeitherTheRowsTextNorTheSQLiteHeader() async throws {
            let (directory, path) = try await makeFile(key: .passphrase(Fixtures.passphrase))
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(bytes.count > 500 * Self.marker.utf8.count)
            #expect(bytes.range(of: Data(Self.marker.utf8)) == nil)
            #expect(bytes.range(of: Data("MARKER".utf8)) == nil)
            #expect(bytes.range(of: Data("SQLite format 3".utf8)) == nil)
            #expect(bytes.range(of: Data("CREATE TABLE".utf8)) == nil)
            // Closing checkpointed the WAL: no side file holds plaintext either.
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
            _ = directory
        }

        @Test func aMemoryMapSettingIsIgnoredAndTheFileStaysEncrypted() async throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            let configuration = SQLiteStore.Configuration(memoryMapBytes: 64 << 20)
            let writer = try EncryptedSQLiteStore(path: path, rawKey: Fixtures.rawKey, configuration: configuration)
            try await writer.defineTable(TableDefinition(name: "TodoItem"))
            let rows = Fixtures.items(count: 500, marker: Self.marker)
            try await writer.write { try $0.upsert(table: "TodoItem", items: rows) }
            try await writer.close()
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(bytes.range(of: Data(Self.marker.utf8)) == nil)

            // Reopened with the setting, the rows come back decrypted, and (where the process's maps can be
            // read) the file was never mapped: SQLCipher decrypts each page it reads instead.
            let store = try EncryptedSQLiteStore(path: path, rawKey: Fixtures.rawKey, configuration: configuration)
            for row in rows.prefix(50) {
                guard case .string(let id)? = row["id"] else { continue }
                #expect(try await store.lookup(table: "TodoItem", id: id) == row)
            }
            #expect(try await store.count(StoreQuery(table: "TodoItem")) == 500)
            #if os(Linux)
                let canonicalPath = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
                // Read to the end with a handle: `String(contentsOfFile:)` stops early on this zero-size file.
                let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps"))
                defer { try? handle.close() }
                let maps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
                #expect(maps.contains("[stack]"), "the whole list was read")
                #expect(!maps.split(separator: "\n").contains { $0.hasSuffix(" " + canonicalPath) })
            #endif
            try await store.close()
            _ = directory
        }

        @Test func theSqlcipherToolReadsTheRowsWithTheDocumentedPassphrasePragmas() async throws {
            let (directory, path) = try await makeFile(key: .passphrase(Fixtures.passphrase))
            // Exactly the statements the "Encrypted store" DocC article tells a user to type.
            let script = """
                PRAGMA key = '\(Fixtures.passphrase)';
                PRAGMA cipher_page_size = 4096;
                SELECT count(*) FROM "TodoItem";
                SELECT * FROM "TodoItem" WHERE id = 'item42';

                """
            let output = try await CommandLineTool(named: "sqlcipher").run([path], input: script)
            #expect(output.status == 0, "\(output.standardError)")
            #expect(output.standardOutput.hasPrefix("500\n"), "\(output.standardError)")
            #expect(output.standardOutput.contains("\(Self.marker) number 42"), "\(output.standardOutput)")
            _ = directory
        }

        @Test func theSqlcipherToolReadsTheRowsWithTheDocumentedRawKeyPragmas() async throws {
            let (directory, path) = try await makeFile(key: .raw(Fixtures.rawKey))
            let hex = Fixtures.rawKey.map { String(format: "%02X", $0) }.joined()
            let script = """
                PRAGMA key = "x'\(hex)'";
                PRAGMA cipher_page_size = 4096;
                SELECT count(*) FROM "TodoItem";

                """
            let output = try await CommandLineTool(named: "sqlcipher").run([path], input: script)
            #expect(output.status == 0, "\(output.standardError)")
            #expect(output.standardOutput == "500\n", "\(output.standardError)")
            _ = directory
        }

        @Test func theSqlcipherToolWithoutThePageSizePragmaCannotReadTheFile() async throws {
            let (directory, path) = try await makeFile(key: .passphrase(Fixtures.passphrase))
            let script = "PRAGMA key = '\(Fixtures.passphrase)';\nSELECT count(*) FROM \"TodoItem\";\n"
            let output = try await CommandLineTool(named: "sqlcipher").run([path], input: script)
            #expect(!output.standardOutput.contains("500"))
            #expect(output.standardError.contains("not a database"))
            _ = directory
        }

        @Test func theSqlite3ToolCannotReadTheFile() async throws {
            let (directory, path) = try await makeFile(key: .passphrase(Fixtures.passphrase))
            let before = try FileSnapshot(path: path)
            let output = try await CommandLineTool(named: "sqlite3").run(
                ["-readonly", path], input: "SELECT count(*) FROM \"TodoItem\";\n")
            #expect(!output.standardOutput.contains("500"))
            #expect(output.standardError.contains("not a database"), "\(output.standardError)")
            #expect(try FileSnapshot(path: path) == before)
            _ = directory
        }

        @Test func aFileTheSqlcipherToolCreatedWithTheDocumentedPragmasOpensInTheStore() async throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            let output = try await CommandLineTool.sqlcipher(
                on: path, after: "CREATE TABLE made_by_cli(x);\nINSERT INTO made_by_cli VALUES (1), (2), (3);")
            #expect(output.status == 0, "\(output.standardError)")

            let store = try EncryptedSQLiteStore(path: path, key: Fixtures.passphrase)
            try await store.defineTable(TableDefinition(name: "T"))
            #expect(try await store.tableDefinitions().map(\.name).contains("T"))
            try await store.close()
        }
    }
#endif
