import Foundation
import Logging
import PostgresNIO
@_spi(SyncTablesTools) import SyncTables
import SyncTablesServer
import SyncTablesServerTesting

/// What a multi-user server costs per request: the same POST and filtered GET page against a server with
/// JWT verification (an Ed25519 development key) and an owner-scoped declared table, and against a server in
/// development mode with the static token; on SQLite, or on PostgreSQL with `--database`.
///
/// Both servers hold the same rows (the scoped server's all belong to the benchmark's user, so both answer
/// the same pages); rounds alternate between them so that drift of a shared machine hits both alike, and the
/// ratio is the median of the rounds' ratios.
struct IdentitySuite {
    struct Sizes {
        var rows: Int
        var requests: Int
        var rounds: Int
        var pageSize: Int
    }

    let sizes: Sizes
    let reporter: Reporter
    let database: PostgresStorage?
    private var suite: String { database == nil ? "identity" : "identity-postgres" }

    private static let declarations = """
        tables:
          todo:
            access: owner
            ownerColumn: userId
            columns:
              text: string
              complete: bool
              priority: integer
              category: string
              notes: string
              estimate: number
        """

    func run() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let key = try DevelopmentKey.loadOrCreate(at: directory.file("dev-key.json"))
        let token = try await key.token(subject: "bench-user", expiresIn: .seconds(24 * 3600))
        let open = try await start(storage: directory.file("open.sqlite"), schemaSuffix: "open") { _ in }
        let scoped = try await start(storage: directory.file("scoped.sqlite"), schemaSuffix: "scoped") {
            $0.authentication = .jwt(JWTVerification(keys: .file(path: directory.file("dev-key.json"))))
            $0.declaredTables = try? TableDeclarations(yaml: Self.declarations)
        }
        do {
            try await measure(
                open: open, scoped: scoped,
                openClient: SyncClient(
                    url: open.url, transport: try CurlTransport(), headers: ["X-ZUMO-AUTH": "bench"]),
                scopedClient: SyncClient(
                    url: scoped.url, transport: try CurlTransport(), headers: ["Authorization": "Bearer \(token)"]))
        } catch {
            try? await open.stop()
            try? await scoped.stop()
            throw error
        }
        try await open.stop()
        try await scoped.stop()
        try await dropSchemas([open.database, scoped.database].compactMap { $0 })
    }

    /// Drops the PostgreSQL schemas the servers made.
    private func dropSchemas(_ databases: [PostgresStorage]) async throws {
        guard let first = databases.first else { return }
        let configuration = PostgresClient.Configuration(
            host: first.host, port: first.port, username: first.username, password: first.password,
            database: first.database, tls: .disable)
        let client = PostgresClient(
            configuration: configuration, backgroundLogger: Logger(label: "sync-bench.identity"))
        let running = Task { await client.run() }
        defer { running.cancel() }
        for database in databases {
            try await client.query(
                PostgresQuery(unsafeSQL: "DROP SCHEMA \"\(database.schema)\" CASCADE"),
                logger: Logger(label: "sync-bench.identity"))
        }
    }

    private func measure(open: Running, scoped: Running, openClient: SyncClient, scopedClient: SyncClient)
        async throws
    {
        let backend = database == nil ? "SQLite file" : "PostgreSQL"
        reporter.note(
            "\(backend); \(sizes.rows) rows each; \(sizes.requests) requests per round, \(sizes.rounds) rounds, "
                + "alternating; scoped: JWT (EdDSA) + owner rule; open: static token, development mode")
        let rows = try (0..<sizes.rows).map { try BenchTodo.make($0, runTag: "g").jsonObject() }
        try await open.seed(rows)
        try await scoped.seed(
            rows.map { row in
                var owned = row
                owned["userId"] = .string("bench-user")
                return owned
            })

        let filter = "complete eq false and startswith(text,'Buy')"
        let encoded = filter.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? filter
        func gets(_ server: Running) throws -> [TransportRequest] {
            try (0..<sizes.requests).map { index in
                TransportRequest(
                    method: .get,
                    url: try server.url(
                        "/tables/todo?$filter=\(encoded)&$top=\(sizes.pageSize)&$skip=\((index % 20) * sizes.pageSize)")
                )
            }
        }
        func posts(_ server: Running, round: Int) throws -> [TransportRequest] {
            try (0..<sizes.requests).map { index in
                TransportRequest(
                    method: .post, url: try server.url("/tables/todo"), headers: ["Content-Type": "application/json"],
                    body: try BenchTodo.make(index, runTag: "p\(round)").jsonObject().jsonBytes)
            }
        }

        var getRatios: [Double] = []
        var postRatios: [Double] = []
        var last: (getOpen: Double, getScoped: Double, postOpen: Double, postScoped: Double) = (0, 0, 0, 0)
        // One warm-up round, not counted.
        for round in 0...sizes.rounds {
            let (getOpen, _) = try await TimedRequests(client: openClient).run(try gets(open), expecting: 200)
            let (getScoped, _) = try await TimedRequests(client: scopedClient).run(try gets(scoped), expecting: 200)
            let (postOpen, _) = try await TimedRequests(client: openClient).run(
                try posts(open, round: round), expecting: 201)
            let (postScoped, _) = try await TimedRequests(client: scopedClient).run(
                try posts(scoped, round: round), expecting: 201)
            guard round > 0 else { continue }
            getRatios.append(getOpen / getScoped)
            postRatios.append(postOpen / postScoped)
            last = (getOpen, getScoped, postOpen, postScoped)
        }
        let count = sizes.requests
        reporter.report(
            BenchResult(
                suite: suite, name: "GET $filter page of \(sizes.pageSize), JWT + owner scope ÷ open",
                unit: "requests/s", value: Double(count) / last.getScoped, baseline: Double(count) / last.getOpen,
                count: count, seconds: last.getScoped, p50: nil, p99: nil, latencyUnit: nil, target: "ratio ≥ 0.85",
                note:
                    "median ratio over \(sizes.rounds) rounds: \(String(format: "%.2f", LocalSuite.median(getRatios))) "
                    + "(rounds: \(getRatios.map { String(format: "%.2f", $0) }.joined(separator: " ")))"))
        reporter.report(
            BenchResult(
                suite: suite, name: "POST insert, JWT + owner scope + declared columns ÷ open", unit: "requests/s",
                value: Double(count) / last.postScoped, baseline: Double(count) / last.postOpen, count: count,
                seconds: last.postScoped, p50: nil, p99: nil, latencyUnit: nil, target: "ratio ≥ 0.85",
                note:
                    "median ratio over \(sizes.rounds) rounds: \(String(format: "%.2f", LocalSuite.median(postRatios))) "
                    + "(rounds: \(postRatios.map { String(format: "%.2f", $0) }.joined(separator: " ")))"))
    }

    /// One in-process server of the comparison.
    private struct Running {
        let server: SyncServer
        let url: URL
        /// The PostgreSQL database and schema, on that backend.
        let database: PostgresStorage?

        func url(_ pathAndQuery: String) throws -> URL {
            guard let url = URL(string: url.absoluteString + pathAndQuery) else {
                throw BenchError.unexpected("bad URL \(pathAndQuery)")
            }
            return url
        }

        func seed(_ rows: [JSONObject]) async throws {
            guard let controls = server.testControls else { throw BenchError.unexpected("test controls are off") }
            var start = 0
            while start < rows.count {
                let end = min(rows.count, start + 5_000)
                _ = try await controls.seed(table: "todo", items: Array(rows[start..<end]))
                start = end
            }
        }

        func stop() async throws {
            try await server.stop()
        }
    }

    private func start(
        storage path: String, schemaSuffix: String, _ configure: (inout SyncServerConfiguration) -> Void
    ) async throws -> Running {
        var configuration = SyncServerConfiguration(storage: .file(path: path), pageSize: sizes.pageSize)
            .withTestControls()
        configuration.authToken = "bench"
        if var database {
            database.schema = "bench_identity_\(schemaSuffix)_\(UInt32.random(in: 0...UInt32.max))"
            configuration.storage = .postgres(database)
        }
        configure(&configuration)
        let server = try await SyncServer(configuration: configuration)
        try await server.start()
        guard let url = server.url else { throw BenchError.unexpected("the server did not report its URL") }
        if case .postgres(let database) = configuration.storage {
            return Running(server: server, url: url, database: database)
        }
        return Running(server: server, url: url, database: nil)
    }
}
