import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// `SQLiteStore.Configuration.memoryMapBytes`: a store reads its file through a memory map only when asked
/// to, and then answers exactly what it answers without one, while commits and checkpoints grow the file.
@Suite("SQLite memory map")
struct SQLiteStoreMemoryMapTests {
    /// Rows of about 4 KB, so each fills a page and a few thousand make the file outgrow its first mapping.
    private static let filler = String(repeating: "m", count: 4000)

    private static func row(_ number: Int, revision: Int) -> JSONObject {
        ["id": .string("r\(number)"), "revision": .integer(Int64(revision)), "text": .string(filler)]
    }

    private static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    @Test func lookupsThroughTheMapSeeEveryCommitWhileCheckpointsGrowTheFile() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.newDatabasePath()
        let store = try SQLiteStore(path: path, configuration: .init(memoryMapBytes: 256 << 20))
        try await store.defineTable(TableDefinition(name: "T"))
        var revisions: [Int: Int] = [:]
        // Batches of 50 new rows; each batch also rewrites rows of earlier ones, and every row written so far
        // is looked up after it, from the map where the checkpoints have copied it into the file.
        for batch in 0..<60 {
            let fresh = (batch * 50..<(batch + 1) * 50).map { ($0, 0) }
            let rewritten = batch == 0 ? [] : (0..<10).map { ((batch * 37 + $0 * 13) % (batch * 50), batch) }
            try await store.write { transaction in
                try transaction.upsert(table: "T", items: (fresh + rewritten).map { Self.row($0.0, revision: $0.1) })
            }
            for (number, revision) in fresh + rewritten { revisions[number] = revision }
            for number in stride(from: batch % 7, to: (batch + 1) * 50, by: 7) {
                let found = try await store.lookup(table: "T", id: "r\(number)")
                #expect(found == Self.row(number, revision: revisions[number] ?? -1), "row \(number), batch \(batch)")
            }
        }
        var copied = false
        for _ in 0..<300 where !copied {
            copied = Self.fileSize(path) > 1500 * 4096
            if !copied { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(copied, "checkpoints copied the rows into the file (\(Self.fileSize(path)) bytes)")
        _ = try await store.write { try $0.delete(table: "T", ids: ["r0", "r2999"]) }
        revisions[0] = nil
        revisions[2999] = nil
        for number in 0..<3000 {
            let expected = revisions[number].map { Self.row(number, revision: $0) }
            #expect(try await store.lookup(table: "T", id: "r\(number)") == expected, "row \(number)")
        }
        let query = StoreQuery(
            table: "T", filter: .comparison(.greaterThan, .property("revision"), .value(.integer(0))))
        #expect(try await store.count(query) == revisions.values.filter { $0 > 0 }.count)
        try await store.close()
        withExtendedLifetime(directory) {}  // the files live in it
    }

    #if os(Linux)
        /// Whether this process maps the file at `path` (`/proc/self/maps` lists each mapped file's path).
        ///
        /// Read to its end with a file handle: the file reports a size of 0, and `String(contentsOfFile:)`
        /// returned only its first part once the list was long.
        private static func isMapped(_ path: String) throws -> Bool {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps"))
            defer { try? handle.close() }
            let maps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
            return maps.split(separator: "\n").contains { $0.hasSuffix(" " + path) }
        }

        @Test(arguments: [(64 << 20, true), (0, false), (-1, false)])
        func theFileIsMappedOnlyWhenAsked(memoryMapBytes: Int, mapped: Bool) async throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            // Closing checkpoints the rows into the database file, where a map can find them.
            let writer = try SQLiteStore(path: path)
            try await writer.defineTable(TableDefinition(name: "T"))
            try await writer.write { try $0.upsert(table: "T", items: (0..<200).map { Self.row($0, revision: 1) }) }
            try await writer.close()
            let canonicalPath = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            #expect(try Self.isMapped(canonicalPath) == false)

            let store = try SQLiteStore(path: path, configuration: .init(memoryMapBytes: memoryMapBytes))
            #expect(try await store.lookup(table: "T", id: "r7") == Self.row(7, revision: 1))
            #expect(try await store.count(StoreQuery(table: "T")) == 200)
            #expect(try Self.isMapped(canonicalPath) == mapped)
            try await store.close()
            #expect(try Self.isMapped(canonicalPath) == false, "closing the store unmaps the file")
            withExtendedLifetime(directory) {}  // the files live in it
        }
    #endif
}
