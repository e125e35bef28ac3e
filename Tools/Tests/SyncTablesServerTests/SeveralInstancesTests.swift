import Foundation
import Logging
import PostgresNIO
import Subprocess
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Three `sync-server` processes on one PostgreSQL database and eight SyncTables clients, each sending every
/// request to an instance picked at random (seeded), as a load balancer would. The clients insert, update and
/// delete rows of their own and update shared rows (conflicts, resolved with the client's item winning).
///
/// Every write a server acknowledged has a version of its own; the database holds each row once, as its
/// last acknowledged write left it; every client ends with exactly the database's rows. In the second test
/// one instance is killed (SIGKILL) mid-traffic and the clients fail over to the other two.
///
/// Only on the PostgreSQL run (`SYNC_TEST_BACKEND=postgres`); they keep both cores of a small machine busy
/// for a minute, so `scripts/test` runs them on their own, after the rest of the server suite. Replay with `SYNCTABLES_INSTANCES_SEED=<seed>`;
/// `SYNCTABLES_INSTANCES_WRITES` (default 500) sets the writes per client.
@Suite("Several sync-server instances on one PostgreSQL database", .serialized)
struct SeveralInstancesTests {
    static let clients = 8
    static let sharedRows = 10

    @Test(.enabled(if: TestBackend.isPostgres), .timeLimit(.minutes(5)))
    func clientsSwitchingBetweenThreeInstancesAtRandomConvergeWithEveryWriteOnce() async throws {
        try await run(killingAnInstance: false)
    }

    @Test(.enabled(if: TestBackend.isPostgres), .timeLimit(.minutes(5)))
    func whenOneOfThreeInstancesIsKilledTheClientsFailOverAndConverge() async throws {
        try await run(killingAnInstance: true)
    }

    private func run(killingAnInstance: Bool) async throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["SYNCTABLES_INSTANCES_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
        let writes = environment["SYNCTABLES_INSTANCES_WRITES"].flatMap(Int.init) ?? 500
        print("SeveralInstancesTests seed \(seed) (replay with SYNCTABLES_INSTANCES_SEED=\(seed))")
        let database = try TestBackend.freshPostgresDatabase()
        let url = try #require(TestBackend.postgresURL)
        let arguments = [
            "--database", url, "--database-schema", database.schema, "--pool-size", "4", "--soft-delete",
            // One request per operation, so the clients' transports see every acknowledged write.
            "--max-batch-operations", "0",
        ]
        do {
            let (_, ended) = try await ChildServers.with(count: 3, arguments: arguments) { servers in
                try await traffic(
                    servers: servers, seed: seed, writes: writes, database: database,
                    victim: killingAnInstance ? servers[2] : nil)
            }
            let expected: [TerminationStatus] =
                killingAnInstance
                ? [.exited(0), .exited(0), .signaled(SIGKILL)] : [.exited(0), .exited(0), .exited(0)]
            #expect(ended == expected, "seed \(seed)")
        } catch {
            try? await TestBackend.dropSchema(of: database)
            throw error
        }
        try await TestBackend.dropSchema(of: database)
    }

    private func traffic(
        servers: [ChildServer], seed: UInt64, writes: Int, database: PostgresStorage, victim: ChildServer?
    ) async throws {
        let ledger = AcceptedWrites()
        let ports = servers.map(\.port)
        for index in 0..<Self.sharedRows {
            let created = try await servers[index % 3].send(.post, "/tables/note", json: #"{"id":"s\#(index)"}"#)
            try #require(created.status == 201, "\(created.text)")
            ledger.record(try created.object())
        }
        var devices: [Device] = []
        for index in 0..<Self.clients {
            let transport = InstanceSwitchingTransport(ports: ports, seed: seed &+ UInt64(index), ledger: ledger)
            devices.append(try await Device.make(index: index, transport: transport))
        }

        // Kill the victim once 40 % of all writes are made, while the other clients keep writing.
        let killAfter = victim.map { _ in Self.clients * writes * 2 / 5 }
        let counter = WriteCounter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for device in devices {
                group.addTask {
                    var random = SeededGenerator(seed: seed &* 31 &+ UInt64(device.index))
                    try await device.write(count: writes, sharedRows: Self.sharedRows, random: &random) {
                        if counter.increment() == killAfter, let victim {
                            print("SeveralInstancesTests: SIGKILL to the instance on port \(victim.port)")
                            victim.send(signal: SIGKILL)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }

        // Push until every queue is empty, then pull: every client now holds what the database holds.
        for device in devices { try await device.settle() }
        for device in devices { try await device.notes.pull(queryId: "all") }

        let rows = try await Self.databaseRows(database)
        let accepted = ledger.writes
        print(
            "SeveralInstancesTests seed \(seed): \(accepted.count) writes accepted, \(ledger.conflicts) conflicts, "
                + "\(ledger.failovers) failovers, \(rows.count) rows")
        #expect(ledger.conflicts > 0, "seed \(seed): the shared rows never conflicted")
        if victim != nil { #expect(ledger.failovers > 0, "seed \(seed): no client met the killed instance") }
        let versions = accepted.map(\.version)
        #expect(Set(versions).count == versions.count, "seed \(seed): a version was handed out twice")
        let lastAccepted = Dictionary(grouping: accepted, by: \.id).mapValues { writes in
            writes.max { $0.updatedAt < $1.updatedAt }!
        }
        for (id, last) in lastAccepted {
            guard let row = rows[id] else {
                Issue.record("seed \(seed): the acknowledged write of \(id) is not in the database")
                continue
            }
            if victim == nil {
                #expect(row.string("version") == last.version, "seed \(seed): \(id) is not its last accepted write")
            } else {
                // A write whose response died with the instance may have landed after the last acknowledged one.
                #expect((row.string("updatedAt") ?? "") >= last.updatedAt, "seed \(seed): \(id) went back in time")
            }
        }
        if victim == nil {
            #expect(Set(rows.keys) == Set(lastAccepted.keys), "seed \(seed): rows no acknowledged write made")
        }

        // A paged read through the live instances returns every row exactly once.
        let live = victim == nil ? servers : Array(servers.prefix(2))
        var paged: [String] = []
        while true {
            let page = try await live[paged.count / 50 % live.count].send(
                .get, "/tables/note?__includeDeleted=true&$orderby=updatedAt,id&$top=50&$skip=\(paged.count)")
            let ids = try page.ids()
            paged += ids
            if ids.count < 50 { break }
        }
        #expect(paged.count == rows.count && Set(paged) == Set(rows.keys), "seed \(seed)")

        let expected = rows.values.filter { $0["deleted"] != .bool(true) }.reduce(into: [String: String]()) {
            $0[$1.string("id") ?? "?"] = $1.string("text") ?? ""
        }
        for device in devices {
            let local = try await device.notes.query().fetchAll().reduce(into: [String: String]()) {
                $0[$1.string("id") ?? "?"] = $1.string("text") ?? ""
            }
            #expect(local == expected, "seed \(seed): client \(device.index) differs from the database")
        }
    }

    /// Every row of the table, read from the database directly.
    private static func databaseRows(_ database: PostgresStorage) async throws -> [String: JSONObject] {
        try await TestBackend.withSession(database) { connection in
            let relation = "\"\(database.schema)\".\"\(PostgresSQL.relation("note"))\""
            let rows = try await connection.query(
                PostgresQuery(unsafeSQL: "SELECT body FROM \(relation)"), logger: Logger(label: "test"))
            var objects: [String: JSONObject] = [:]
            for try await row in rows {
                guard case .object(let object) = try JSONValue(parsing: try row.decode(String.self)) else { continue }
                objects[object.string("id") ?? "?"] = object
            }
            return objects
        }
    }
}

/// One client: a context on its own in-memory store, talking to the instances through its transport.
private struct Device: Sendable {
    let index: Int
    let context: SyncContext
    let notes: SyncTable<JSONObject>

    /// The client's item wins every conflict; an insert that meets its own earlier insert (whose response
    /// died with an instance) takes the server's row; a delete of a row already deleted is done.
    static let conflictPolicy = ConflictPolicy.custom { conflict in
        guard let server = conflict.serverItem else { return .unresolved }
        if conflict.kind == .insert { return .cancelAndUpdateItem(server) }
        if conflict.kind == .delete, server["deleted"] == .bool(true) { return .cancelAndDiscardItem }
        var item = conflict.clientItem ?? server
        item["version"] = server["version"]
        return .retry(updatingItem: item)
    }

    static func make(index: Int, transport: InstanceSwitchingTransport) async throws -> Device {
        let client = SyncClient(url: transport.baseURL, transport: transport)
        let context = try await SyncContext(
            store: try SQLiteStore.inMemory(), client: client,
            configuration: SyncContext.Configuration(conflictPolicy: conflictPolicy))
        return Device(index: index, context: context, notes: try await context.table(JSONObject.self, named: "note"))
    }

    /// Makes `count` local writes (shared rows updated, own rows inserted, updated and deleted), pushing and
    /// pulling now and then; a failed sync is tried again later, as an app would.
    func write(count: Int, sharedRows: Int, random: inout SeededGenerator, afterEach: () -> Void) async throws {
        _ = try? await notes.pull(queryId: "all")
        var owned: [String] = []
        for step in 0..<count {
            let dice = Int.random(in: 0..<100, using: &random)
            let text = "c\(index)-\(step)"
            if dice < 40, var item = try await notes.lookup(id: "s\(Int.random(in: 0..<sharedRows, using: &random))") {
                item["text"] = .string(text)
                _ = try await notes.update(item)
            } else if dice < 75 || owned.isEmpty {
                let id = "c\(index)-\(step)"
                _ = try await notes.insert(JSONObject(["id": .string(id), "text": .string(text)]))
                owned.append(id)
            } else if dice < 92, var item = try await notes.lookup(id: owned.randomElement(using: &random)!) {
                item["text"] = .string(text)
                _ = try await notes.update(item)
            } else {
                let victim = Int.random(in: owned.indices, using: &random)
                try await notes.delete(id: owned.remove(at: victim))
            }
            afterEach()
            let sync = Int.random(in: 0..<100, using: &random)
            if sync < 12 {
                _ = try? await context.push()
            } else if sync < 16 {
                _ = try? await notes.pull(queryId: "all")
            }
        }
    }

    /// Pushes until nothing is pending; operations the server refused for good take the server's row.
    func settle() async throws {
        for _ in 0..<20 {
            do {
                _ = try await context.push()
            } catch SyncError.pushFailed(let failure) {
                for error in failure.errors {
                    if let server = error.serverItem, error.kind != .delete {
                        try await error.cancelAndUpdateItem(server)
                    } else {
                        try await error.cancelAndDiscardItem()
                    }
                }
            } catch {
                continue  // the network: try again
            }
            for dead in try await context.deadOperations() {
                try await context.revertToServer(operationId: dead.id)
            }
            if try await context.pendingOperationCount() == 0 { return }
        }
        Issue.record("client \(index) still has \(try await context.pendingOperationCount()) operations pending")
    }
}

/// Sends each request to one of several instances, picked at random (seeded), as a load balancer would; an
/// instance that refuses the connection is skipped for the next. Notes every write a server acknowledged.
private final class InstanceSwitchingTransport: HTTPTransport, @unchecked Sendable {
    let ports: [Int]
    let ledger: AcceptedWrites
    private let next = SyncClient.defaultTransport()
    private let lock = NSLock()
    private var random: SeededGenerator

    init(ports: [Int], seed: UInt64, ledger: AcceptedWrites) {
        self.ports = ports
        self.ledger = ledger
        random = SeededGenerator(seed: seed)
    }

    /// The URL the client is configured with; every request's port is replaced by the picked instance's.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(ports[0])")! }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let first = lock.withLock { Int.random(in: 0..<ports.count, using: &random) }
        var failure: (any Error)?
        for offset in 0..<ports.count {
            var routed = request
            var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
            components?.port = ports[(first + offset) % ports.count]
            routed.url = components?.url ?? request.url
            do {
                let response = try await next.send(routed)
                if response.status == 409 || response.status == 412 { ledger.countConflict() }
                if ["POST", "PATCH", "DELETE"].contains(request.method.rawValue), (200..<300).contains(response.status),
                    case .object(let item)? = try? JSONValue(parsing: String(decoding: response.body, as: UTF8.self))
                {
                    ledger.record(item)
                }
                return response
            } catch let error as TransportError where error.kind == .connectionFailed {
                failure = error  // that instance is down: the next one
                ledger.countFailover()
            }
        }
        throw failure ?? TransportError(.connectionFailed, message: "no instance")
    }
}

/// One write a server acknowledged.
private struct AcceptedWrite: Sendable {
    let id: String
    let version: String
    let updatedAt: String
}

/// Every write the servers acknowledged, from all clients, and how many conflicts and failovers they met.
private final class AcceptedWrites: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [AcceptedWrite] = []

    func record(_ item: JSONObject) {
        guard let id = item.string("id"), let version = item.string("version"),
            let updatedAt = item.string("updatedAt")
        else { return }
        lock.withLock { recorded.append(AcceptedWrite(id: id, version: version, updatedAt: updatedAt)) }
    }

    var writes: [AcceptedWrite] { lock.withLock { recorded } }

    /// Requests answered 409 or 412.
    var conflicts: Int { lock.withLock { conflictCount } }
    /// Requests sent to another instance because the picked one refused the connection.
    var failovers: Int { lock.withLock { failoverCount } }
    private var conflictCount = 0
    private var failoverCount = 0

    func countConflict() { lock.withLock { conflictCount += 1 } }
    func countFailover() { lock.withLock { failoverCount += 1 } }
}

/// Counts the writes of all clients.
private final class WriteCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
}
