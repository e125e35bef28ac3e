import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Crash safety of a wipe: a child process wiping a full store is killed with `SIGKILL` at random points
/// after it announced the wipe (seeded; `SYNCTABLES_CRASH_SEED` replays it); every kill must leave the store
/// either exactly as it was or wiped, never part of it.
@Suite("Wipe crash safety under SIGKILL", .serialized)
struct WipeCrashTests {
    private static let tables = ["Task", "Note", "Tag"]
    private static let runs = 10

    @Test func wipeKilledPartWayLeavesEitherAllOfTheStoreOrNone() async throws {
        var random = SeededGenerator.announced("wipe crash test")
        let directory = try TemporaryDirectory()
        let path = directory.newDatabasePath()
        // The child never reaches the server: a wipe is local.
        let child = CrashChildProcess(
            arguments: ["wipe", "http://127.0.0.1:9", path], logDirectory: directory.url)
        // One wipe to completion measures how long a wipe takes here; the kills spread over one and a half
        // times that after the child announces the wipe, so some land before, in and after its commit.
        _ = try await Self.fill(path: path)
        let started = ContinuousClock.now
        try await child.runToCompletion()
        let span = Int((ContinuousClock.now - started).milliseconds) * 1_500
        var full = try await Self.fill(path: path)
        var outcomes: [String] = []

        for _ in 0..<Self.runs {
            let delay = Duration.microseconds(Int.random(in: 0...span, using: &random))
            let outcome = try await child.run(killingAt: .afterOutput("wiping", delay)) { 0 }
            let store = try SQLiteStore(path: path)
            let contents = try await WipeFixture.RawContents.read(store)
            try await store.close()

            let untouched = contents == full
            #expect(untouched || contents.isWiped, "a kill \(delay.milliseconds) ms in left \(contents)")
            outcomes.append(
                "+\(delay.milliseconds)ms=\(outcome == .killed ? "killed" : "finished")/"
                    + (untouched ? "all" : "none"))
            if !untouched { full = try await Self.fill(path: path) }
        }
        print("wipe crash runs: \(outcomes.joined(separator: " "))")
    }

    /// Fills every table with rows and queued operations, and a pull token each; returns what it holds.
    private static func fill(path: String) async throws -> WipeFixture.RawContents {
        let context = try await SyncContext(store: try SQLiteStore(path: path))
        for table in tables {
            let handle = try await context.table(JSONObject.self, named: table)
            let batch = (0..<2_000).map { JSONObject(["id": .string("\(table)-\($0)"), "n": .integer(Int64($0))]) }
            _ = try await handle.insert(contentsOf: batch)
            try await context.store.write { transaction in
                try SystemConfig.setValue(
                    "2001-01-01T00:00:00.000Z", for: SystemConfig.deltaTokenKey(table: table, queryId: "q"),
                    in: transaction)
            }
        }
        let contents = try await WipeFixture.RawContents.read(context.store)
        try await context.close()
        return contents
    }
}
