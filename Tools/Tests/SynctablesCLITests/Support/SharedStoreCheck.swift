import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@_spi(SyncTablesTools) @testable import SyncTablesSQLite

/// Checks a store file several processes wrote: the rows and operations each writer made, once each.
enum SharedStoreCheck {
    /// Expects rows `<prefix>-0..<count` of every prefix and nothing else, one pending insert per row with
    /// distinct sequences, and an intact file.
    static func expectConsistent(_ path: String, table: String, prefixes: [String], count: Int) async throws {
        let expected = Set(prefixes.flatMap { prefix in (0..<count).map { "\(prefix)-\($0)" } })
        let stored = try await rows(table, in: path).compactMap { $0["id"]?.stringValue }
        #expect(stored.count == expected.count, "rows: \(stored.count), written: \(expected.count)")
        #expect(Set(stored) == expected)

        let store = try SQLiteStore(path: path)
        let context = try await SyncContext(store: store)
        let operations = try await context.pendingOperations()
        try await context.close()
        let mine = operations.filter { $0.table == table }
        #expect(mine.count == expected.count, "operations: \(mine.count), rows: \(expected.count)")
        #expect(Set(mine.map(\.itemId)) == expected)
        #expect(Set(operations.map(\.sequence)).count == operations.count, "sequences are distinct")

        let database = try Database(path: path)
        defer { try? database.close() }
        #expect(try database.scalar("PRAGMA integrity_check") == .text("ok"))
    }
}
