import Foundation
@_spi(SyncTablesTools) import SyncTables

#if SQLCipher
    import SyncTablesSQLCipher
#endif

/// What opening costs: the encrypted store with a passphrase (key derivation) and with a raw key, each next
/// to opening the plain store, all opening an existing file and reading one row.
struct OpenCost {
    let reporter: Reporter
    let opens: Int
    private let suite = "local"
    private let passphrase = "sync-bench passphrase"

    func run(directory: TemporaryDirectory) async throws {
        #if SQLCipher
            let plainPath = directory.file("open-plain.sqlite")
            let passphrasePath = directory.file("open-passphrase.sqlite")
            let rawPath = directory.file("open-raw.sqlite")
            try await prepare(SQLiteStore(path: plainPath))
            try await prepare(EncryptedSQLiteStore(path: passphrasePath, key: passphrase))
            try await prepare(EncryptedSQLiteStore(path: rawPath, rawKey: StoreFactory.rawKey))

            let plainSeconds = try await time { try SQLiteStore(path: plainPath) }
            let passphraseSeconds = try await time { try EncryptedSQLiteStore(path: passphrasePath, key: passphrase) }
            let rawSeconds = try await time { try EncryptedSQLiteStore(path: rawPath, rawKey: StoreFactory.rawKey) }
            for (name, seconds) in [
                ("passphrase (PBKDF2, 64,000 iterations)", passphraseSeconds), ("raw key", rawSeconds),
            ] {
                reporter.report(
                    BenchResult(
                        suite: suite, name: "encrypted open + first lookup, \(name)", unit: "opens/s",
                        value: Double(opens) / seconds, baseline: Double(opens) / plainSeconds, count: opens,
                        seconds: seconds,
                        note: String(
                            format: "%.2f ms per open (plain store %.2f ms); baseline: plain store",
                            1000 * seconds / Double(opens), 1000 * plainSeconds / Double(opens))))
            }
        #endif
    }

    private func prepare(_ store: any LocalStore) async throws {
        try await store.defineTable(TableDefinition(name: "T"))
        try await store.write { try $0.upsert(table: "T", items: [JSONObject(["id": .string("a")])]) }
        try await store.close()
    }

    private func time(_ open: () throws -> any LocalStore) async throws -> Double {
        try await Stopwatch.time {
            for _ in 0..<opens {
                let store = try open()
                guard try await store.lookup(table: "T", id: "a") != nil else { throw BenchError.missing("a") }
                try await store.close()
            }
        }
    }
}
