import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@_spi(SyncTablesTools) @testable import SyncTablesSQLite
@testable import SyncTablesServer

/// Incremental pulls while writes are in flight, in 100 seeded orders on the backend the suite runs on. The
/// `$skip` client (``SkipPuller``) and the keyset client (``KeysetPuller``) page while up to four writes, at most
/// one per row, run on connections of their own. At the end every client holds every row's latest version
/// (nothing missed), and no pull returned a row version twice (except the `$skip` client's re-fetch of the row at
/// its watermark). The seed is in every failure message.
///
/// On PostgreSQL, direct database sessions (at most two at once) also hold writes open:
/// - a row hold locks a row (`FOR UPDATE`), then a write to that row starts, and the test waits until it waits for
///   the lock;
/// - a counter hold locks the table's counter row in `__synctables_tables`: every write started meanwhile takes its
///   own row lock and then waits at the stamping step.
///
/// Meanwhile other writes commit and the clients page; a release commits the session, and its writes commit late.
///
/// On SQLite no write can be held open while others commit: the server's store has one connection and one
/// writer, so a write takes its stamp only once it holds the database file's write lock, and commits before the
/// next write starts. The SQLite run holds that lock instead, from a connection of the test's own
/// (`BEGIN IMMEDIATE`), while up to three writes and maybe a keyset page are sent, and lets go once the server has
/// received them all: the first to reach the store waits for the lock and everything behind it on the store's
/// serial actor waits too (``LateCommitTests`` shows it), so they are served in the order they reached the store,
/// not the order they were sent. Between such batches the writes race with the pull pages over real HTTP,
/// several requests in flight at once. Which request the server serves first is up to the scheduler: a seed fixes
/// the test's steps, not the server's order.
///
/// The `$skip` algorithm's limit (see the DocC article "Change order") needs two commits between a page holding only
/// the row at the client's watermark and its `$skip` follow-up, one of them rewriting that row. So no hold is
/// released while the client is mid-`$skip`, and before each of its pages at most one unfinished write is free to
/// commit.
@Suite("Incremental pulls interleaved with late commits")
struct LateCommitInterleavingTests {
    @Test(.timeLimit(.minutes(5)))
    func noRowIsMissedOrReturnedTwiceInOnePullIn100InterleavingsWithWritesInFlight() async throws {
        let configure = { (configuration: inout SyncServerConfiguration) in
            configuration.softDelete = .allTables
            configuration.pageSize = 4
        }
        guard TestBackend.isPostgres else {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("late-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let path = directory.appendingPathComponent("server.sqlite").path
            try await ServerHarness.with({
                configure(&$0)
                $0.storage = .file(path: path)
            }) { server in
                let fileLock = try Database(path: path)
                try fileLock.setBusyTimeout(milliseconds: 5_000)
                defer { try? fileLock.close() }
                try await Self.runSeeds(server, holder: nil, fileLock: fileLock)
            }
            return
        }
        var database = try TestBackend.freshPostgresDatabase()
        database.poolSize = 8  // blocked writes keep their connections; the pages need one more
        try await ServerHarness.with({
            configure(&$0)
            $0.storage = .postgres(database)
        }) { server in
            try await PostgresLockHolder.with(database) { holder in
                try await Self.runSeeds(server, holder: holder, fileLock: nil)
            }
        }
        try await TestBackend.dropSchema(of: database)
    }

    private static func runSeeds(_ server: ServerHarness, holder: PostgresLockHolder?, fileLock: Database?)
        async throws
    {
        try await server.withConnection { connection in
            for seed in UInt64(0)..<100 {
                var interleaving = Interleaving(
                    seed: seed, server: server, connection: connection, holder: holder, fileLock: fileLock)
                do {
                    try await interleaving.run()
                } catch let error as ExpectationFailedError {
                    throw error  // recorded already, with its seed
                } catch {
                    Issue.record(error, "seed \(seed)")
                    return
                }
            }
        }
    }
}

/// One seeded interleaving of writes (some held open) and the pages of both clients' pulls.
private struct Interleaving {
    let seed: UInt64
    let table: String
    let server: ServerHarness
    let connection: ServerHarness.Connection
    let holder: PostgresLockHolder?
    /// SQLite: the test's own connection to the server's database file.
    let fileLock: Database?
    var random: SeededGenerator
    /// Each row's latest version, from the server's answers.
    var truth: [String: JSONObject] = [:]
    /// The unfinished write of each row.
    var inFlight: [String: Write] = [:]
    /// What each of the holder's sessions holds.
    var holds: [Hold?] = [nil, nil]
    var skipClient: SkipPuller
    var keysetClient: KeysetPuller

    /// A write whose request runs on a connection of its own.
    struct Write {
        let task: Task<HTTPResult, any Error>
        /// The sessions whose locks it waits for (or will).
        var blockers: Set<Int>
    }

    enum Hold: Equatable {
        case row(String)
        case counter
    }

    static let rows = 8
    static let writes = 16
    static let maxInFlight = 4

    init(
        seed: UInt64, server: ServerHarness, connection: ServerHarness.Connection, holder: PostgresLockHolder?,
        fileLock: Database?
    ) {
        self.seed = seed
        table = "late\(seed)"
        self.server = server
        self.connection = connection
        self.holder = holder
        self.fileLock = fileLock
        random = SeededGenerator(seed: 0x1A7E_C000 + seed)
        skipClient = SkipPuller(table: table)
        keysetClient = KeysetPuller(table: table, port: connection.port)
    }

    mutating func run() async throws {
        var writesLeft = Self.writes
        while writesLeft > 0 {
            if skipClient.isSkipping {
                try await skipStep()
                continue
            }
            switch Int.random(in: 0..<10, using: &random) {
            case 0, 1: try await skipStep()
            case 2, 3: try await keysetClient.step(connection)
            case 4, 5, 6:
                if let id = freeRow() {
                    try await start(id)
                    writesLeft -= 1
                }
            case 7: try await finishOne()
            default:
                guard holder != nil else {
                    writesLeft -= try await heldFileBatch()
                    continue
                }
                if let index = holds.indices.filter({ holds[$0] != nil }).randomElement(using: &random),
                    Bool.random(using: &random)
                {
                    try await release(index)
                } else if try await hold() {
                    writesLeft -= 1
                }
            }
        }
        while skipClient.isSkipping { try await skipStep() }
        for index in holds.indices where holds[index] != nil { try await release(index) }
        while !inFlight.isEmpty { try await finishOne() }
        try await PullerConvergence.finishAndExpect(
            &skipClient, &keysetClient, truth: truth, seed: seed, connection: connection)
    }

    // MARK: Writes

    /// A random row with no unfinished write, when fewer than the most writes are in flight.
    private mutating func freeRow(existing: Bool = false) -> String? {
        guard inFlight.count < Self.maxInFlight else { return nil }
        let free = (0..<Self.rows).map { "r\($0)" }.filter { id in
            inFlight[id] == nil && (!existing || truth[id] != nil)
        }
        return free.randomElement(using: &random)
    }

    /// Starts a write to `id`; when a hold blocks it, waits until it waits for the lock.
    private mutating func start(_ id: String) async throws {
        let write = RandomRowWrite(table: table, id: id, current: truth[id], random: &random)
        let task = Task { [server] in try await server.send(write.method, write.path, json: write.json) }
        let blockers = Set(holds.indices.filter { holds[$0] == .counter || holds[$0] == .row(id) })
        inFlight[id] = Write(task: task, blockers: blockers)
        if !blockers.isEmpty { try await waitUntilHeldWritesWait() }
    }

    /// Waits for the server's answer to a random unfinished write that no hold blocks.
    private mutating func finishOne() async throws {
        let free = inFlight.filter { $0.value.blockers.isEmpty }.keys.sorted()
        guard let id = free.randomElement(using: &random), let write = inFlight.removeValue(forKey: id) else { return }
        let response = try await write.task.value
        try #require(
            (200...201).contains(response.status), "seed \(seed): \(id) \(response.status) \(response.text)")
        truth[id] = try response.object()
    }

    /// One page of the `$skip` client, with at most one unheld write unfinished (see the suite's comment).
    private mutating func skipStep() async throws {
        while inFlight.values.filter(\.blockers.isEmpty).count > 1 { try await finishOne() }
        try await skipClient.step(connection)
    }

    // MARK: Holds (PostgreSQL)

    /// Takes a random kind of hold in a free session; `true` when a held write started.
    private mutating func hold() async throws -> Bool {
        guard let holder, let index = holds.firstIndex(of: nil) else { return false }
        if !holds.contains(.counter), !truth.isEmpty, Bool.random(using: &random) {
            // Every unfinished write may still need the counter: finish the unheld ones, the held ones wait on.
            while inFlight.values.contains(where: \.blockers.isEmpty) { try await finishOne() }
            try await holder.lockCounter(session: index, table: table)
            holds[index] = .counter
            for id in inFlight.keys { inFlight[id]?.blockers.insert(index) }
            return false
        }
        guard let id = freeRow(existing: true) else { return false }
        try await holder.lockRow(session: index, table: table, id: id)
        holds[index] = .row(id)
        try await start(id)
        return true
    }

    /// Commits a session's transaction: the writes it held go on (and commit unless another hold blocks them).
    private mutating func release(_ index: Int) async throws {
        try await holder?.commit(session: index)
        holds[index] = nil
        for id in inFlight.keys { inFlight[id]?.blockers.remove(index) }
    }

    // MARK: The file's write lock (SQLite)

    /// Holds the database file's write lock while up to three writes, and maybe a keyset page, are sent; lets go
    /// once the server has received them all. Returns how many writes started.
    private mutating func heldFileBatch() async throws -> Int {
        guard let fileLock, let id = freeRow() else { return 0 }
        try await server.controls.clearRequests()
        try fileLock.execute("BEGIN IMMEDIATE")
        try await start(id)
        var started = 1
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            guard let id = freeRow() else { break }
            try await start(id)
            started += 1
        }
        let page: Task<KeysetPuller, any Error>? =
            Bool.random(using: &random)
            ? Task { [keysetClient, connection] in
                var client = keysetClient
                try await client.step(connection)
                return client
            } : nil
        let sent = started + (page == nil ? 0 : 1)
        let deadline = ContinuousClock.now + .seconds(20)
        while try await server.controls.requests().count < sent, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(2))
        }
        try fileLock.execute("COMMIT")
        if let page { keysetClient = try await page.value }
        return started
    }

    /// Waits until every held write waits for a lock.
    private func waitUntilHeldWritesWait() async throws {
        guard let holder else { return }
        let held = inFlight.values.filter { !$0.blockers.isEmpty }.count
        let waited = try await holder.waitForWaiters(held)
        try #require(waited, "seed \(seed): \(held) held writes never all waited for a lock (holds: \(holds))")
    }
}
