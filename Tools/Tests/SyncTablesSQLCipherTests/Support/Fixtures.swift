#if SQLCipher
    import Foundation
    @_spi(SyncTablesTools) @testable import SyncTables
    import SyncTablesSQLCipher

    /// Keys and rows the encrypted-store tests share.
    enum Fixtures {
        static let passphrase = "correct horse battery staple"
        static let otherPassphrase = "Tr0ub4dor&3"
        /// A raw key with every byte distinct, so a hex-encoding slip would show.
        static let rawKey: [UInt8] = (0..<32).map { UInt8($0 * 7 + 3) }

        /// Items whose text contains `marker`.
        static func items(count: Int, marker: String = "plain-marker") -> [JSONObject] {
            (0..<count).map {
                JSONObject(["id": .string("item\($0)"), "text": .string("\(marker) number \($0)")])
            }
        }

        /// Creates an encrypted database at `path` holding `count` rows in table `T`, closed.
        static func makeEncryptedFile(path: String, key: EncryptionKey, count: Int = 100) async throws {
            let store = try EncryptedSQLiteStore(path: path, key: key)
            try await store.defineTable(TableDefinition(name: "T"))
            let rows = items(count: count)
            try await store.write { try $0.upsert(table: "T", items: rows) }
            try await store.close()
        }
    }
#endif
