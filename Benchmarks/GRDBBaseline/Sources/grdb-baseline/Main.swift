import Foundation
import GRDB
import SyncTables

/// `grdb-baseline [rows] [rounds]`: SyncTables' reads next to GRDB 7.10's on the same rows, same WAL and
/// `synchronous = NORMAL` settings, in one run. Prints each figure's median of rounds and the ratio
/// (SyncTables ÷ GRDB, above 1 when SyncTables is faster).
@main
struct GRDBBaseline {
    static func main() async throws {
        let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
        let rows = arguments.first ?? 100_000
        let rounds = arguments.dropFirst().first ?? 5
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("grdb-baseline-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // GRDB_BASELINE_KEEP=1 keeps both files for a look with the sqlite3 tool.
        let keep = ProcessInfo.processInfo.environment["GRDB_BASELINE_KEEP"] != nil
        defer {
            if keep {
                print("files kept in \(directory.path)")
            } else {
                try? FileManager.default.removeItem(at: directory)
            }
        }
        let items = (0..<rows).map(BaselineTodo.make)

        let sync = try await SyncTablesSide(path: directory.appendingPathComponent("synctables.sqlite").path)
        let grdb = try GRDBSide(path: directory.appendingPathComponent("grdb.sqlite").path)
        let insertSync = try await time { try await sync.insert(items) }
        let insertGRDB = try await time { try grdb.insert(items) }
        print("rows: \(rows), rounds: \(rounds)")
        report("batched insert (rows/s)", Double(rows) / insertSync, Double(rows) / insertGRDB)

        let layout = try StoredLayout(
            syncTablesFile: directory.appendingPathComponent("synctables.sqlite").path, table: "BaselineTodo")
        var query: [(Double, Double)] = []
        var sqlOnly: [Double] = []
        var countSQLOnly: [Double] = []
        var count: [(Double, Double)] = []
        let repeats = 20
        for _ in 0..<rounds {
            // Interleaved, so a busy moment of the machine hits both sides alike.
            let syncQuery = try await time { for _ in 0..<repeats { try await sync.check(sync.query(), 1_000) } }
            let grdbQuery = try await time { for _ in 0..<repeats { try check(grdb.query(), 1_000) } }
            let layoutQuery = try await time {
                for _ in 0..<repeats {
                    guard try layout.query() == 1_000 else { throw Mismatch(message: "the SQL missed rows") }
                }
            }
            let syncCount = try await time { for _ in 0..<repeats { _ = try await sync.count() } }
            let layoutCount = try await time { for _ in 0..<repeats { _ = try layout.count() } }
            let grdbCount = try await time { for _ in 0..<repeats { _ = try grdb.count() } }
            query.append((Double(repeats) / syncQuery, Double(repeats) / grdbQuery))
            sqlOnly.append(Double(repeats) / layoutQuery)
            countSQLOnly.append(Double(repeats) / layoutCount)
            count.append((Double(repeats) / syncCount, Double(repeats) / grdbCount))
        }
        report("filtered, ordered query of 1,000 rows (queries/s)", median(query.map(\.0)), median(query.map(\.1)))
        report("filtered count (queries/s)", median(count.map(\.0)), median(count.map(\.1)))
        report(
            "the query's SQL alone on SyncTables' file, rows read as values (queries/s)", median(sqlOnly),
            median(query.map(\.1)))
        report(
            "the count's SQL alone on SyncTables' file (queries/s)", median(countSQLOnly), median(count.map(\.1)))
        print(
            "share of SyncTables' query time spent outside SQLite (assembling and decoding 1,000 rows): "
                + String(format: "%.0f %%", 100 * (1 - median(query.map(\.0)) / median(sqlOnly))))
        try layout.queue.close()
        let syncCount = try await sync.count()
        let grdbCount = try grdb.count()
        guard syncCount == grdbCount else { throw Mismatch(message: "counts \(syncCount) vs \(grdbCount)") }

        try await sync.close()
        try grdb.close()
        let syncBytes = try fileBytes(directory.appendingPathComponent("synctables.sqlite").path)
        let grdbBytes = try fileBytes(directory.appendingPathComponent("grdb.sqlite").path)
        for (name, path) in [("SyncTables", "synctables.sqlite"), ("GRDB", "grdb.sqlite")] {
            let sizes = try StoredLayout.sizes(of: directory.appendingPathComponent(path).path)
            print(
                "\(name) file by table and index: "
                    + sizes.map { "\($0.name) \($0.bytes / 1024) KiB" }.joined(separator: ", "))
        }
        print(
            "file size: SyncTables \(syncBytes / 1024) KiB, GRDB \(grdbBytes / 1024) KiB, ratio "
                + String(format: "%.2f", Double(syncBytes) / Double(grdbBytes)))
    }

    static func report(_ name: String, _ sync: Double, _ grdb: Double) {
        print(
            "\(name): SyncTables \(Int(sync.rounded())), GRDB \(Int(grdb.rounded())), ratio \(String(format: "%.2f", sync / grdb))"
        )
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    static func time(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void
    ) async throws -> Double {
        let start = ContinuousClock.now
        try await body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    static func check(_ rows: [BaselineTodo], _ expected: Int) throws {
        guard rows.count == expected else { throw Mismatch(message: "\(rows.count) rows instead of \(expected)") }
    }

    static func fileBytes(_ path: String) throws -> Int {
        // Closed cleanly, so the WAL was checkpointed into the file.
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }
}

struct Mismatch: Error {
    var message: String
}

/// SyncTables: an `SQLiteStore` with its defaults (WAL, `synchronous = NORMAL`).
struct SyncTablesSide {
    let context: SyncContext
    let table: SyncTable<BaselineTodo>

    init(path: String) async throws {
        // The store's defaults unless GRDB_BASELINE_CACHE_KIB or GRDB_BASELINE_MMAP says otherwise.
        let environment = ProcessInfo.processInfo.environment
        var configuration = SQLiteStore.Configuration()
        if let cache = environment["GRDB_BASELINE_CACHE_KIB"].flatMap({ Int($0) }) {
            configuration.cacheSizeKiB = cache
        }
        if let map = environment["GRDB_BASELINE_MMAP"].flatMap({ Int($0) }) { configuration.memoryMapBytes = map }
        context = try await SyncContext(store: try SQLiteStore(path: path, configuration: configuration))
        table = try await context.table(BaselineTodo.self)
    }

    func insert(_ items: [BaselineTodo]) async throws {
        try await table.insert(contentsOf: items)
    }

    /// Not done, priority 3 or more, newest first, 1,000 rows.
    func query() async throws -> [BaselineTodo] {
        try await table.query()
            .filter(SyncTables.Column("done") == false && SyncTables.Column("priority") >= 3)
            .order(SyncTables.Column("created").descending)
            .limit(1_000)
            .fetchAll()
    }

    func count() async throws -> Int {
        try await table.query()
            .filter(SyncTables.Column("done") == false && SyncTables.Column("priority") >= 3)
            .fetchCount()
    }

    func check(_ rows: [BaselineTodo], _ expected: Int) throws {
        try GRDBBaseline.check(rows, expected)
    }

    func close() async throws {
        try await context.close()
    }
}

/// GRDB: a `DatabaseQueue` in WAL mode with `synchronous = NORMAL`, one column per property.
struct GRDBSide {
    let queue: DatabaseQueue

    init(path: String) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.write { db in
            try db.create(table: BaselineTodo.databaseTableName) { table in
                table.primaryKey("id", .text)
                table.column("text", .text)
                table.column("done", .boolean)
                table.column("priority", .integer)
                table.column("category", .text)
                table.column("notes", .text)
                table.column("estimate", .double)
                table.column("created", .datetime)
            }
        }
    }

    func insert(_ items: [BaselineTodo]) throws {
        try queue.write { db in
            for item in items { try item.insert(db) }
        }
    }

    func query() throws -> [BaselineTodo] {
        try queue.read { db in
            try BaselineTodo
                .filter(GRDB.Column("done") == false && GRDB.Column("priority") >= 3)
                .order(GRDB.Column("created").desc)
                .limit(1_000)
                .fetchAll(db)
        }
    }

    func count() throws -> Int {
        try queue.read { db in
            try BaselineTodo.filter(GRDB.Column("done") == false && GRDB.Column("priority") >= 3).fetchCount(db)
        }
    }

    func close() throws {
        try queue.close()
    }
}
