import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("Typed system rows: a store from layout 3 keeps its engine backoff and push lease")
struct LegacyConfigRowsTests {
    /// A SQLite store as layout 3 left it, with these `__config` string values.
    private static func layoutThreeStore(values: [String: String]) async throws -> String {
        let path = ContextTemporaryFile.make().path
        let old = try SQLiteStore(path: path)
        try await old.write { transaction in
            try transaction.defineTable(SystemTables.configDefinition)
            for migration in SystemSchema.migrations where migration.version <= 3 { try migration.apply(transaction) }
            try SystemConfig.setValue("3", for: SystemConfig.schemaVersionKey, in: transaction)
            for (key, value) in values { try SystemConfig.setValue(value, for: key, in: transaction) }
        }
        try await old.close()
        return path
    }

    @Test func theBackoffAndTheLeaseBecomeTypedRowsWithTheSameValues() async throws {
        let path = try await Self.layoutThreeStore(values: [
            "engineBackoff": "4|2027-01-02T03:04:05.000Z", "pushLease": "1800000000000 app (pid 1, abc)",
        ])

        let context = try await SyncContext(store: try SQLiteStore(path: path))

        let backoff = try #require(try await context.engineBackoff())
        #expect(backoff.failures == 4)
        #expect(backoff.until == (try Timestamp(iso8601: "2027-01-02T03:04:05.000Z")).date)
        let holder = try await context.store.write { try PushLease.holder(in: $0) }
        #expect(holder == PushLease.Holder(owner: "app (pid 1, abc)", expires: 1_800_000_000_000))
        #expect(try await context.store.lookup(table: "__config", id: "pushLease")?["value"] == nil)
        try await context.close()
    }

    @Test func unreadableOldValuesAreDroppedNotFatal() async throws {
        let path = try await Self.layoutThreeStore(values: ["engineBackoff": "soon", "pushLease": "nobody"])

        let context = try await SyncContext(store: try SQLiteStore(path: path))

        #expect(try await context.engineBackoff() == nil)
        #expect(try await context.store.write { try PushLease.holder(in: $0) } == nil)
        _ = try await context.pendingOperationCount()
        try await context.close()
    }
}
