import Foundation
import SyncTablesStoreConformance
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// `SQLiteStore` passes every check of the shared store conformance suite, on a file (read with `pread` or
/// through a memory map) and in memory.
@Suite("SQLiteStore conformance") struct SQLiteStoreConformanceTests {
    @Test(arguments: StoreConformanceSuite.checks)
    func fileStorePasses(_ check: StoreConformanceCheck) async throws {
        let directory = try TemporaryDirectory()
        try await check.run { try SQLiteStore(path: directory.newDatabasePath()) }
    }

    @Test(arguments: StoreConformanceSuite.checks)
    func fileStoreReadThroughAMemoryMapPasses(_ check: StoreConformanceCheck) async throws {
        let directory = try TemporaryDirectory()
        try await check.run {
            try SQLiteStore(
                path: directory.newDatabasePath(), configuration: .init(memoryMapBytes: 64 << 20))
        }
    }

    @Test(arguments: StoreConformanceSuite.checks)
    func inMemoryStorePasses(_ check: StoreConformanceCheck) async throws {
        try await check.run { try SQLiteStore.inMemory() }
    }
}
