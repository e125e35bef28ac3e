import Foundation
import SyncTablesServer
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Crash safety of pull: a child process pulling 2,000 rows incrementally in small pages is killed with
/// `SIGKILL` at random points 20 times (seeded; `SYNCTABLES_CRASH_SEED` replays a run) while the server
/// keeps changing; after every kill the stored token never runs ahead of the rows it covers, and a fresh
/// pull ends with exactly the server's rows. `sync-server` advertises keyset pulls, so after its first page
/// each pull runs in keyset mode and the token is the last committed row's `(updatedAt, id)`.
@Suite("Pull crash safety under SIGKILL", .serialized)
struct PullCrashTests {
    private static let table = "Row"
    private static let queryId = "all"
    private static let tokenKey = "deltaToken|Row|all"
    private static let pageSize = 10
    private static let runs = 20

    @Test func incrementalPullKilledTwentyTimesNeverStoresATokenAheadOfItsDataAndAFreshPullCompletes() async throws {
        var random = SeededGenerator.announced("pull crash test")
        try await SyncHarness.with(pageSize: 1000) { harness in
            var timeline = try ServerTimeline()
            let rows = (0..<2000).map { index -> JSONObject in
                ["id": .string("r\(index)"), "text": .string("row \(index)"), "generation": 0]
            }
            _ = try await harness.controls.seed(table: Self.table, items: timeline.stamp(rows, random: &random))
            let path = harness.directory.newDatabasePath()
            let child = CrashChildProcess(
                arguments: ["pull", harness.url.absoluteString, path, Self.table, Self.queryId, "\(Self.pageSize)"],
                logDirectory: harness.directory.url)
            var previousToken = Position(time: .epoch, id: nil)
            var progress: [String] = []
            var childTime = Duration.zero

            for run in 0..<Self.runs {
                if run > 0 && run % 5 == 0 {
                    // The server moves on between pulls: edits and deletions with newer timestamps.
                    let changes = try await Self.serverChanges(harness, generation: run, random: &random)
                    _ = try await harness.controls.seed(
                        table: Self.table, items: timeline.stamp(changes, random: &random))
                }
                let point = CrashChildProcess.KillPoint.random(run: run, requestsUpTo: 25, using: &random)
                _ = try await harness.takeRequests()
                let started = ContinuousClock.now
                let outcome = try await child.run(killingAt: point) { try await harness.controls.requests().count }
                childTime += ContinuousClock.now - started

                let local = try await StoreSnapshot.read(path: path, tables: [Self.table])
                let server = try await harness.serverRows(table: Self.table)
                let token = try Self.position(local.config[Self.tokenKey])
                #expect(
                    !previousToken.isAfter(token), "run \(run): the token went back from \(previousToken) to \(token)")
                Self.expectTokenCoversItsData(token, local: local, server: server, run: run)
                previousToken = token
                progress.append(
                    "\(point)=\(outcome == .killed ? "killed" : "finished"):\(local.rowCounts[Self.table] ?? 0)")
            }
            print(
                "pull crash runs (\(childTime.milliseconds) ms in children; kill point=outcome:local rows): "
                    + progress.joined(separator: " "))

            // A fresh context finishes the pull: every live server row, at its server version, nothing else.
            // (Larger pages only to keep the test short; the token is the same whatever the page size.)
            let context = try await SyncContext(
                store: try SQLiteStore(path: path), client: SyncClient(url: harness.url))
            try await context.table(JSONObject.self, named: Self.table)
                .pull(queryId: Self.queryId, options: PullOptions(pageSize: 100))
            try await context.close()

            let local = try await StoreSnapshot.read(path: path, tables: [Self.table])
            let server = try await harness.serverRows(table: Self.table)
            let live = server.filter { $0.value["deleted"] != .bool(true) }
            let localRows = local.rows[Self.table] ?? [:]
            #expect(local.rowCounts[Self.table] == live.count)
            #expect(Set(localRows.keys) == Set(live.keys))
            for (id, row) in live {
                #expect(localRows[id].map(userData) == userData(row), "\(id)")
                #expect(localRows[id]?["version"] == row["version"], "\(id)")
            }
            // The token is the keyset position of the newest row (sync-server advertises keysets).
            let positions = server.map { id, row in Self.updatedAt(row).map { Position(time: $0, id: id) } }
            let newest = positions.compactMap { $0 }.max { $1.isAfter($0) }
            #expect(try Self.position(local.config[Self.tokenKey]) == newest)
        }
    }

    /// A stored token: `<time>` or, in keyset mode, `<time>|<id>`.
    private static func position(_ text: String?) throws -> Position {
        guard let text else { return Position(time: .epoch, id: nil) }
        let parts = text.split(separator: "|", maxSplits: 1).map(String.init)
        return Position(time: try Timestamp(iso8601: parts[0]), id: parts.count == 2 ? parts[1] : nil)
    }

    /// Every server row at or before the token's position (before its time when it has no id) is stored
    /// locally as the server has it (or is absent when the server deleted it), and the local store holds no
    /// row the server never had.
    private static func expectTokenCoversItsData(
        _ token: Position,
        local: StoreSnapshot,
        server: [String: JSONObject],
        run: Int
    ) {
        let localRows = local.rows[table] ?? [:]
        #expect(local.rowCounts[table, default: 0] == localRows.count)
        if let newest = server.values.compactMap(updatedAt).max() {
            #expect(token.time <= newest, "run \(run): token \(token) is ahead of every server row")
        }
        for (id, row) in server {
            guard let updatedAt = updatedAt(row), !Position(time: updatedAt, id: id).isAfter(token) else { continue }
            let stored = localRows[id]
            if row["deleted"] == .bool(true) {
                #expect(stored == nil, "run \(run): \(id) was deleted before the token \(token) but is stored")
            } else {
                #expect(
                    stored.map(userData) == userData(row) && stored?["version"] == row["version"],
                    "run \(run): \(id) (updatedAt \(updatedAt)) is below the token \(token) but stored as \(stored as Any)"
                )
            }
        }
        for id in localRows.keys {
            #expect(server[id] != nil, "run \(run): \(id) is stored but the server never had it")
        }
    }

    private static func updatedAt(_ row: JSONObject) -> Timestamp? {
        row["updatedAt"]?.stringValue.flatMap(Timestamp.init(parsing:))
    }

    /// 40 edits and 15 deletions of random live rows.
    private static func serverChanges(
        _ harness: SyncHarness,
        generation: Int,
        random: inout SeededGenerator
    ) async throws -> [JSONObject] {
        let live = try await harness.serverRows(table: table).values.filter { $0["deleted"] != .bool(true) }
        let picked = live.sorted { $0.id < $1.id }.shuffled(using: &random).prefix(55)
        return picked.enumerated().map { offset, row in
            var changed = JSONObject(userData(row))
            changed["generation"] = .integer(Int64(generation))
            changed["text"] = .string("edited in generation \(generation)")
            if offset < 15 { changed["deleted"] = true }
            return changed
        }
    }
}

/// A pull's position: a time, and the id of the last row at that time in keyset mode.
private struct Position: Equatable, CustomStringConvertible {
    var time: Timestamp
    var id: String?

    /// Ordered by time, then id as UTF-8 bytes; a position without an id is before every row of its time.
    func isAfter(_ other: Position) -> Bool {
        if time != other.time { return time > other.time }
        guard let id else { return false }
        guard let otherID = other.id else { return true }
        return otherID.utf8.lexicographicallyPrecedes(id.utf8)
    }

    var description: String { time.iso8601 + (id.map { "|" + $0 } ?? "") }
}

/// Hands out increasing `updatedAt` values to server rows in runs of equal timestamps: mostly short
/// runs, some longer than a page so the incremental pull falls back to `$skip`.
struct ServerTimeline {
    private var next: Timestamp

    init() throws {
        next = try Timestamp(iso8601: "2001-01-01T00:00:00.000Z")
    }

    /// The rows with `updatedAt` set, in order; each run of equal timestamps is one second after the last.
    mutating func stamp(_ rows: [JSONObject], random: inout SeededGenerator) -> [JSONObject] {
        var stamped: [JSONObject] = []
        var remaining = rows[...]
        while !remaining.isEmpty {
            let kind = Int.random(in: 0..<10, using: &random)
            let length =
                kind < 6
                ? Int.random(in: 1...3, using: &random)
                : kind < 9 ? Int.random(in: 4...12, using: &random) : Int.random(in: 15...40, using: &random)
            let time = next.iso8601Milliseconds
            for var row in remaining.prefix(length) {
                row["updatedAt"] = .string(time)
                stamped.append(row)
            }
            remaining = remaining.dropFirst(length)
            next = Timestamp(ticks: next.ticks + 10_000_000)
        }
        return stamped
    }
}
