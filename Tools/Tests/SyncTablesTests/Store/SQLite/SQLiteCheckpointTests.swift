import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@_spi(SyncTablesTools) @testable import SyncTablesSQLite

/// The write-ahead log is checkpointed off the store's thread and never grows without bound.
@Suite("SQLite checkpoints")
struct SQLiteCheckpointTests {
    /// Rows of about 4 KB, so each one fills a page of the log.
    private func writeLargeRows(_ store: SQLiteStore, count: Int, prefix: String) async throws {
        let text = String(repeating: "x", count: 4000)
        for start in stride(from: 0, to: count, by: 50) {
            try await store.write { transaction in
                let rows = (start..<min(count, start + 50)).map {
                    JSONObject(["id": .string("\(prefix)\($0)"), "text": .string(text)])
                }
                try transaction.upsert(table: "Big", items: rows)
            }
        }
    }

    /// A file store with the table `Big`, its path, and the directory that keeps it.
    private func storeWithBigTable() async throws -> (TemporaryDirectory, String, SQLiteStore) {
        let directory = try TemporaryDirectory()
        let path = directory.newDatabasePath()
        let store = try SQLiteStore(path: path)
        try await store.defineTable(TableDefinition(name: "Big"))
        return (directory, path, store)
    }

    private func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    @Test func theLogIsCheckpointedInTheBackgroundAndStaysBounded() async throws {
        let (directory, path, store) = try await storeWithBigTable()
        try await writeLargeRows(store, count: 6000, prefix: "a")

        // Checkpoints copied the rows into the database file itself, while the log stayed near the size at
        // which commits checkpoint themselves: past it, a commit that finds the background checkpoint still
        // running cannot checkpoint too, so on a loaded machine a few batches more go in first (once 4,250
        // frames in CI). Without checkpoints the log would hold every row, over 6,000 frames. A frame is a
        // page and its 24-byte header.
        let pageSize = 4096
        let frame = pageSize + 24
        let bound = (Int(SQLiteCheckpointer.inlinePages) + 1_000) * frame
        #expect(fileSize(path + "-wal") < bound)
        var copied = false
        for _ in 0..<200 where !copied {
            copied = fileSize(path) > 3000 * pageSize
            if !copied { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(copied, "the database file holds the checkpointed rows")
        #expect(try await store.count(StoreQuery(table: "Big")) == 6000)

        // Closing checkpoints the rest and removes the log; every row is in the database file.
        try await store.close()
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        let reopened = try SQLiteStore(path: path)
        #expect(try await reopened.count(StoreQuery(table: "Big")) == 6000)
        try await reopened.close()
        withExtendedLifetime(directory) {}  // the files live in it
    }

    @Test func theThreadCopiesTheLogBeforeAnyCommitWouldCheckpointItself() async throws {
        let (directory, path, store) = try await storeWithBigTable()
        // About 2,000 pages of log: past the size that wakes the thread, short of the size at which a commit
        // checkpoints itself, so only the thread can have copied rows into the database file.
        try await writeLargeRows(store, count: 2000, prefix: "c")
        #expect(fileSize(path + "-wal") < Int(SQLiteCheckpointer.inlinePages) * 4096)
        var copied = false
        for _ in 0..<300 where !copied {
            copied = fileSize(path) > 1500 * 4096
            if !copied { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(copied, "the checkpoint thread copied the log into the database file (\(fileSize(path)) bytes)")
        try await store.close()
        withExtendedLifetime(directory) {}  // the files live in it
    }

    @Test func aSteadyStreamOfCommitsWakesTheThreadOncePerThousandLogPages() async throws {
        let (directory, _, store) = try await storeWithBigTable()
        let checkpointer = try #require(store.checkpointer)
        // Some 6,000 pages of log (rows of about 16 KB) in 1,500 commits, with no pause for the thread to catch
        // up: it used to be woken by every commit once the log passed 1,000 pages, over a thousand times here.
        let text = String(repeating: "z", count: 16000)
        for index in 0..<1500 {
            try await store.write { transaction in
                try transaction.upsert(
                    table: "Big", items: [JSONObject(["id": .string("r\(index)"), "text": .string(text)])])
            }
        }
        let wakes = checkpointer.wakes
        #expect(wakes >= 1, "the log passed 1,000 pages, so the thread was asked to checkpoint")
        #expect(wakes <= 15, "about one wake per 1,000 pages of log growth, not one per commit (\(wakes))")
        #expect(try await store.count(StoreQuery(table: "Big")) == 1500)
        try await store.close()
        withExtendedLifetime(directory) {}  // the files live in it
    }

    @Test func withoutTheCheckpointThreadCommitsCheckpointThemselves() async throws {
        let (directory, path, store) = try await storeWithBigTable()
        // Handing out the connection stops the checkpoint thread (a rekey needs that).
        try await store.withDatabase { _ in }
        try await writeLargeRows(store, count: 6000, prefix: "b")
        // SQLite's own rule applies again: a checkpoint about every 1000 pages, inside the commit.
        #expect(fileSize(path + "-wal") < (Int(SQLiteCheckpointer.backgroundPages) + 200) * 4096)
        #expect(fileSize(path) > 3000 * 4096)
        try await store.close()
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        withExtendedLifetime(directory) {}  // the files live in it
    }

    @Test func aCheckpointRacingWritesLosesNothing() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.newDatabasePath()
        let context = try await SyncContext(store: try SQLiteStore(path: path))
        let table = try await context.table(JSONObject.self, named: "Note")
        let text = String(repeating: "y", count: 2000)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for index in 0..<500 {
                        try await table.insert(
                            JSONObject(["id": .string("w\(writer)-\(index)"), "text": .string(text)]))
                    }
                }
            }
            try await group.waitForAll()
        }
        try await context.close()
        let reopened = try await SyncContext(store: try SQLiteStore(path: path))
        #expect(try await reopened.table(JSONObject.self, named: "Note").query().fetchCount() == 2000)
        #expect(try await reopened.pendingOperationCount() == 2000)
        try await reopened.close()
    }
}
