#if SQLCipher
    import Foundation
    @_spi(SyncTablesTools) @testable import SyncTables
    import SyncTablesSQLCipher
    import SyncTablesStoreConformance
    import Testing

    /// `EncryptedSQLiteStore` passes every check of the shared store conformance suite, on real files.
    @Suite("EncryptedSQLiteStore conformance") struct ConformanceTests {
        @Test(arguments: StoreConformanceSuite.checks)
        func fileStoreWithARawKeyPasses(_ check: StoreConformanceCheck) async throws {
            let directory = try TemporaryDirectory()
            try await check.run { try EncryptedSQLiteStore(path: directory.newDatabasePath(), rawKey: Fixtures.rawKey) }
        }

        @Test(arguments: StoreConformanceSuite.checks)
        func fileStoreWithAPassphrasePasses(_ check: StoreConformanceCheck) async throws {
            let directory = try TemporaryDirectory()
            try await check.run {
                try EncryptedSQLiteStore(path: directory.newDatabasePath(), key: Fixtures.passphrase)
            }
        }
    }
#endif
