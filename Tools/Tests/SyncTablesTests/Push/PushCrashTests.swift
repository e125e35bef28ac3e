import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Crash safety of push: a child process pushing a mixed queue is killed with `SIGKILL` at random points
/// 20 times (seeded; the seed is printed and `SYNCTABLES_CRASH_SEED` replays it); after every kill the
/// store and the server must agree on what was confirmed, and a fresh context finishes the work.
@Suite("Push crash safety under SIGKILL", .serialized)
struct PushCrashTests {
    private static let tables = ["Task", "Note"]
    private static let runs = 20
    /// The queue is topped up with another batch whenever fewer operations remain, so every run has
    /// work to interrupt however fast the machine is.
    private static let refillBelow = 80

    /// Run one request per operation, in batches of 20 operations, and with 8 requests at once.
    @Test(arguments: [(1, 1), (20, 1), (1, 8)])
    func pushKilledTwentyTimesThenFinishedByAFreshContextAppliesEveryOperationExactlyOnce(
        batchSize: Int, concurrency: Int
    ) async throws {
        var random = SeededGenerator.announced("push crash test (batch size \(batchSize), \(concurrency) at once)")
        let options = PushOptions(batchSize: batchSize, maxConcurrentRequests: concurrency)
        try await SyncHarness.with(pageSize: 1000) { harness in
            let path = harness.directory.newDatabasePath()
            var model = try await PushCrashModel.seeded(harness, path: path, tables: Self.tables)
            let child = CrashChildProcess(
                arguments: ["push", harness.url.absoluteString, path] + Self.tables,
                logDirectory: harness.directory.url,
                environment: [
                    "SYNCTABLES_PUSH_BATCH_SIZE": "\(batchSize)", "SYNCTABLES_PUSH_CONCURRENCY": "\(concurrency)",
                ])
            var outcomes: [String] = []
            var requests = try await harness.takeRequests()
            var childTime = Duration.zero

            for run in 0..<Self.runs {
                if try await StoreSnapshot.read(path: path, tables: []).pendingOperations.count < Self.refillBelow {
                    try await model.queueBatch(path: path, random: &random)
                }
                let point = CrashChildProcess.KillPoint.random(run: run, requestsUpTo: 40, using: &random)
                let started = ContinuousClock.now
                let outcome = try await child.run(killingAt: point) { try await harness.controls.requests().count }
                childTime += ContinuousClock.now - started
                requests += try await harness.takeRequests()
                outcomes.append("\(point)=\(outcome == .killed ? "killed" : "finished")")

                let local = try await StoreSnapshot.read(path: path, tables: Self.tables)
                let server = try await model.serverState(harness)
                model.expectConfirmedOperationsReachedTheServer(local: local, server: server, run: run)
            }
            print("push crash runs (\(childTime.milliseconds) ms in children): \(outcomes.joined(separator: " "))")

            // A fresh context finishes the work: no error, nothing left, everything exactly once.
            let context = try await SyncContext(
                store: try SQLiteStore(path: path), client: SyncClient(url: harness.url))
            try await context.push(options: options)
            #expect(try await context.pendingOperationCount() == 0)
            #expect(try await context.pushErrors().isEmpty)
            try await context.close()

            let local = try await StoreSnapshot.read(path: path, tables: Self.tables)
            let server = try await model.serverState(harness)
            #expect(local.pendingOperations.isEmpty)
            model.expectConfirmedOperationsReachedTheServer(local: local, server: server, run: Self.runs)
            requests += try await harness.takeRequests()
            let retried = model.expectEachOperationTookEffectOnce(requests: requests, server: server)
            print(
                "push crash: \(model.operations.count) operations in \(model.batches) batches; "
                    + "sent more than once (recovered after a kill): \(retried)")
        }
    }
}

/// What the push crash test queued and what the server must end up with.
struct PushCrashModel {
    /// One queued local change, the only one ever made to its item.
    struct Operation {
        let table: String
        let id: String
        let kind: OperationKind
        /// The server row before the push (`nil` for inserts): its data and the version `If-Match` carries.
        let before: JSONObject?
        /// The user data the server must hold afterwards; `nil` for deletes.
        let after: [String: JSONValue]?

        var key: String { "\(table)|\(id)" }
        var path: String { kind == .insert ? "/tables/\(table)" : "/tables/\(table)/\(id)" }
    }

    let tables: [String]
    /// Server rows not yet touched, per table, handed out to batches as update and delete targets.
    private var untouched: [String: [JSONObject]]
    private(set) var operations: [Operation] = []
    private(set) var batches = 0

    private static let seededPerTable = 300
    private static let insertsPerTable = 30
    private static let updatesPerTable = 25
    private static let deletesPerTable = 10

    /// Seeds the server and pulls every row into a new store at `path` (as a device would have them).
    static func seeded(_ harness: SyncHarness, path: String, tables: [String]) async throws -> PushCrashModel {
        var untouched: [String: [JSONObject]] = [:]
        for table in tables {
            let rows: [JSONObject] = (0..<seededPerTable).map { index in
                ["id": .string("\(table)-s\(index)"), "text": .string("seeded \(index)"), "done": false]
            }
            untouched[table] = try await harness.controls.seed(table: table, items: rows)
        }
        let context = try await SyncContext(store: try setupStore(path), client: SyncClient(url: harness.url))
        for table in tables {
            try await context.table(JSONObject.self, named: table).pull(options: PullOptions(pageSize: 1000))
        }
        try await context.close()
        return PushCrashModel(tables: tables, untouched: untouched)
    }

    /// The store the test itself writes through to prepare work: commits skip the fsync (a `SIGKILL`
    /// loses nothing the kernel holds), which keeps the setup fast; the child runs the default `FULL`.
    private static func setupStore(_ path: String) throws -> SQLiteStore {
        try SQLiteStore(path: path, configuration: SQLiteStore.Configuration(synchronous: .normal))
    }

    private init(tables: [String], untouched: [String: [JSONObject]]) {
        self.tables = tables
        self.untouched = untouched
    }

    /// Queues one batch of inserts, updates and deletes across the tables, in a random interleaving.
    mutating func queueBatch(path: String, random: inout SeededGenerator) async throws {
        var batch: [Operation] = []
        for table in tables {
            guard var rows = untouched[table], rows.count >= Self.updatesPerTable + Self.deletesPerTable else {
                Issue.record("the seeded rows of \(table) ran out; seed more")
                return
            }
            for index in 0..<Self.insertsPerTable {
                let id = "\(table)-b\(batches)-n\(index)"
                let data: [String: JSONValue] = ["id": .string(id), "text": .string("new \(index)"), "done": false]
                batch.append(Operation(table: table, id: id, kind: .insert, before: nil, after: data))
            }
            for _ in 0..<Self.updatesPerTable {
                let row = rows.removeFirst()
                var data = userData(row)
                data["text"] = .string("edited in batch \(batches)")
                data["done"] = true
                batch.append(Operation(table: table, id: row.id, kind: .update, before: row, after: data))
            }
            for _ in 0..<Self.deletesPerTable {
                let row = rows.removeFirst()
                batch.append(Operation(table: table, id: row.id, kind: .delete, before: row, after: nil))
            }
            untouched[table] = rows
        }
        batch.shuffle(using: &random)

        let context = try await SyncContext(store: try Self.setupStore(path))
        var handles: [String: SyncTable<JSONObject>] = [:]
        for table in tables { handles[table] = try await context.table(JSONObject.self, named: table) }
        for operation in batch {
            let table = try #require(handles[operation.table])
            switch operation.kind {
            case .insert:
                try await table.insert(JSONObject(operation.after ?? [:]))
            case .update:
                var item = try #require(try await table.lookup(id: operation.id))
                for (name, value) in operation.after ?? [:] { item[name] = value }
                try await table.update(item)
            case .delete:
                try await table.delete(id: operation.id)
            }
        }
        try await context.close()
        operations += batch
        batches += 1
    }

    /// The server's rows of every table, by `table|id`.
    func serverState(_ harness: SyncHarness) async throws -> [String: JSONObject] {
        var state: [String: JSONObject] = [:]
        for table in tables {
            for (id, row) in try await harness.serverRows(table: table) { state["\(table)|\(id)"] = row }
        }
        return state
    }

    /// After a kill: an operation that left the queue reached the server and its result is the local row;
    /// one still queued left the server either untouched or already changed — never anything else.
    func expectConfirmedOperationsReachedTheServer(
        local: StoreSnapshot,
        server: [String: JSONObject],
        run: Int
    ) {
        for operation in operations {
            let serverRow = server[operation.key]
            let localRow = local.rows[operation.table]?[operation.id]
            let done = Self.isDone(operation, serverRow: serverRow)
            if local.pendingOperations.contains(operation.key) {
                let untouched = Self.isUntouched(operation, serverRow: serverRow)
                #expect(
                    done || untouched, "run \(run): \(operation.key) is half-applied on the server: \(serverRow as Any)"
                )
            } else {
                #expect(done, "run \(run): \(operation.key) left the queue but the server has \(serverRow as Any)")
                if operation.after == nil {
                    #expect(localRow == nil, "run \(run): deleted \(operation.key) is still stored")
                } else {
                    #expect(
                        localRow.map(userData) == operation.after && localRow?["version"] == serverRow?["version"],
                        "run \(run): \(operation.key) is stored as \(localRow as Any), the server has \(serverRow as Any)"
                    )
                }
            }
        }
        // Each operation that left the queue recorded exactly one history entry in its transaction, and
        // nothing else did: the history counter equals the number of confirmed operations.
        let confirmed = operations.filter { !local.pendingOperations.contains($0.key) }.count
        let recorded = local.config["historySequence"].flatMap { Int($0) } ?? 0
        #expect(recorded == confirmed, "run \(run): \(recorded) history entries for \(confirmed) confirmed operations")
    }

    /// At the end: every write request for an item (alone or inside a batch) carried the version the server had before the push,
    /// so at most one of them can have applied, and inserted rows were never written again. Returns
    /// how many operations were sent more than once.
    func expectEachOperationTookEffectOnce(requests: [RecordedRequest], server: [String: JSONObject]) -> Int {
        var sent: [String: [RecordedRequest]] = [:]
        // A batch (`/sync/batch`) is logged and then each of its operations as the request it stands for.
        for request in requests where request.method != "GET" && request.path.hasPrefix("/tables/") {
            let key: String
            if request.method == "POST", let id = request.bodyID {
                key = "\(request.path)|\(id)"
            } else {
                key = request.path
            }
            sent[key, default: []].append(request)
        }
        var retried = 0
        for operation in operations {
            let key = operation.kind == .insert ? "\(operation.path)|\(operation.id)" : operation.path
            let requests = sent.removeValue(forKey: key) ?? []
            let expectedMethod =
                switch operation.kind {
                case .insert: "POST"
                case .update: "PATCH"
                case .delete: "DELETE"
                }
            #expect(!requests.isEmpty && requests.allSatisfy { $0.method == expectedMethod }, "\(operation.key)")
            if requests.count > 1 { retried += 1 }
            if let before = operation.before {
                let ifMatch = "\"\(before["version"]?.stringValue ?? "")\""
                #expect(requests.allSatisfy { $0.header("If-Match") == ifMatch }, "\(operation.key): \(requests)")
            } else {
                let row = server[operation.key]
                #expect(
                    row?["createdAt"] != nil && row?["createdAt"] == row?["updatedAt"],
                    "\(operation.key): \(row as Any)")
            }
        }
        #expect(sent.isEmpty, "requests for items nobody changed: \(sent.keys.sorted())")
        return retried
    }

    private static func isUntouched(_ operation: Operation, serverRow: JSONObject?) -> Bool {
        guard let before = operation.before else { return serverRow == nil }
        guard let serverRow else { return false }
        return serverRow["deleted"] == .bool(false) && userData(serverRow) == userData(before)
            && serverRow["version"] == before["version"]
    }

    private static func isDone(_ operation: Operation, serverRow: JSONObject?) -> Bool {
        guard let serverRow else { return false }
        guard let after = operation.after else { return serverRow["deleted"] == .bool(true) }
        return serverRow["deleted"] == .bool(false) && userData(serverRow) == after
    }
}
