import Foundation
@_spi(SyncTablesTools) import SyncTables
@_spi(SyncTablesTools) import SyncTablesSQLite

/// What keeping each queued update's ancestor costs: the push of N queued updates whose operations carry their
/// ancestor, next to the push of the same updates whose ancestors were removed from the queue (as a store
/// queued them before ancestors existed), in alternating rounds; and the bytes the ancestors add to the file.
struct MergeSuite {
    let reporter: Reporter
    let updates: Int
    let rounds: Int

    func run() async throws {
        let harness = try await ServerHarness.start(pageSize: 50, maxTop: 1000)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        do {
            let client = SyncClient(url: harness.baseURL, transport: try CurlTransport())
            var ratios: [Double] = []
            var (withSeconds, withoutSeconds) = (0.0, 0.0)
            var bytesPerUpdate = 0.0
            var fileBytesPerUpdate = 0.0
            for round in 0..<rounds {
                // Alternating which goes first spreads a shared machine's drift over both.
                var seconds: [Bool: Double] = [:]
                for keepsAncestors in round % 2 == 0 ? [true, false] : [false, true] {
                    let path = directory.file("merge-\(round)-\(keepsAncestors).sqlite")
                    let table = "merge\(round)\(keepsAncestors ? "a" : "b")"
                    let sizes = try await queueUpdates(path: path, table: table, client: client)
                    if keepsAncestors {
                        bytesPerUpdate = sizes.ancestorBytes / Double(updates)
                    } else {
                        try Self.removeAncestors(path: path)
                        fileBytesPerUpdate = (sizes.fileBytes - (try Self.fileBytes(path: path))) / Double(updates)
                    }
                    seconds[keepsAncestors] = try await push(path: path, table: table, client: client)
                }
                let (with, without) = (seconds[true] ?? 0, seconds[false] ?? 0)
                (withSeconds, withoutSeconds) = (withSeconds + with, withoutSeconds + without)
                ratios.append(without / with)
            }
            let median = ratios.sorted()[ratios.count / 2]
            reporter.report(
                BenchResult(
                    suite: "merge", name: "push \(updates) queued updates keeping their ancestors",
                    unit: "operations/s", value: Double(updates * rounds) / withSeconds,
                    baseline: Double(updates * rounds) / withoutSeconds, count: updates * rounds, seconds: withSeconds,
                    target: "≥ 0.9",
                    note: "baseline: the same updates with the ancestors removed from the queue; median of "
                        + "\(rounds) alternating rounds' ratios \(String(format: "%.2f", median)); ancestors add "
                        + "\(Int(bytesPerUpdate)) bytes of JSON and \(Int(fileBytesPerUpdate)) bytes of file per "
                        + "queued update (items of about 325 bytes)"))
        } catch {
            try? await harness.stop()
            throw error
        }
        try await harness.stop()
    }

    /// A store whose `updates` items came from the server and each has one update queued; returns the ancestors'
    /// JSON bytes and the file's size.
    private func queueUpdates(path: String, table: String, client: SyncClient) async throws
        -> (ancestorBytes: Double, fileBytes: Double)
    {
        let context = try await SyncContext(store: try SQLiteStore(path: path), client: client)
        let todos = try await context.table(BenchTodo.self, named: table)
        let items = (0..<updates).map { BenchTodo.make($0, runTag: table) }
        try await todos.insert(contentsOf: items)
        try await context.push()
        for var item in items {
            item.complete.toggle()
            item.priority += 1
            try await todos.update(item)
        }
        try await context.close()
        let database = try Database(path: path)
        defer { try? database.close() }
        guard case .integer(let bytes) = try database.scalar("SELECT SUM(LENGTH(ancestor)) FROM \(Self.queue)") else {
            throw BenchError.unexpected("no ancestors were queued")
        }
        try database.execute("VACUUM")
        return (Double(bytes), try Self.fileBytes(database))
    }

    /// Pushes the queued updates; returns the seconds it took.
    private func push(path: String, table: String, client: SyncClient) async throws -> Double {
        let context = try await SyncContext(store: try SQLiteStore(path: path), client: client)
        var summary: PushSummary?
        let seconds = try await Stopwatch.time { summary = try await context.push() }
        try await context.close()
        guard summary?.pushedOperations == updates else {
            throw BenchError.unexpected("pushed \(summary?.pushedOperations ?? 0) of \(updates) updates")
        }
        return seconds
    }

    private static let queue = "__synctables_operations"

    private static func removeAncestors(path: String) throws {
        let database = try Database(path: path)
        defer { try? database.close() }
        try database.execute("UPDATE \(queue) SET ancestor = NULL; VACUUM")
    }

    private static func fileBytes(path: String) throws -> Double {
        let database = try Database(path: path)
        defer { try? database.close() }
        return try fileBytes(database)
    }

    private static func fileBytes(_ database: Database) throws -> Double {
        guard case .integer(let pages) = try database.scalar("PRAGMA page_count"),
            case .integer(let size) = try database.scalar("PRAGMA page_size")
        else { return 0 }
        return Double(pages * size)
    }
}
