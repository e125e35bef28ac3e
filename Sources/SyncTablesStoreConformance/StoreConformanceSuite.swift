import SyncTables

/// The behaviours every `LocalStore` must have; `SQLiteStore`, `EncryptedSQLiteStore` and `MemoryStore`
/// all pass them, and a third-party store can run them from its own tests.
///
/// The suite has no test framework dependency: each ``StoreConformanceCheck`` is a named async closure.
///
/// ```swift
/// import SyncTablesStoreConformance
/// import Testing
///
/// @Test(arguments: StoreConformanceSuite.checks)
/// func conforms(_ check: StoreConformanceCheck) async throws {
///     try await check.run { try MyStore(path: temporaryPath()) }
/// }
/// ```
public enum StoreConformanceSuite {
    /// Every check, grouped by topic: tables, writes, values, filters, ordering, transactions, queue, history.
    public static var checks: [StoreConformanceCheck] {
        TableChecks.all + WriteChecks.all + ValueChecks.all + FilterChecks.all + OrderingChecks.all
            + TransactionChecks.all + QueueChecks.all + HistoryChecks.all
    }

    /// The table-driven filter cases (filter, expected ids) run by the filter checks, for inspection.
    public static var filterCaseCount: Int { FilterCases.all.count }
}
