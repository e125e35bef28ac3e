import SyncTablesStoreConformance
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// `MemoryStore` passes every check of the shared store conformance suite.
@Suite("MemoryStore conformance") struct MemoryStoreConformanceTests {
    @Test(arguments: StoreConformanceSuite.checks)
    func memoryStorePasses(_ check: StoreConformanceCheck) async throws {
        try await check.run { MemoryStore() }
    }
}
