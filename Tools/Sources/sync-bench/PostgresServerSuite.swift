import Foundation
import Logging
import PostgresNIO
@_spi(SyncTablesTools) import SyncTables
import SyncTablesServer

/// The reference backend on PostgreSQL: 1, 2, 3 … `sync-server` instances (child processes) on one
/// database, loaded by concurrent clients that each talk to one instance. POSTs and filtered page GETs are
/// measured beside ``PostgresRawLoop``, the same statements sent straight through PostgresNIO by as many
/// workers, in the same run; then the first and last pages of a large table.
struct PostgresServerSuite {
    struct Sizes {
        var inserts: Int
        var rows: Int
        var gets: Int
        var pageSize: Int
        var pagingRows: Int
        var pagingRounds: Int
        var clients: Int
        var instances: [Int]
    }

    let database: PostgresStorage
    let sizes: Sizes
    let reporter: Reporter
    private let suite = "server-postgres"
    /// Exactly compiled to SQL, so the raw loop runs the statement the server runs (string functions are
    /// checked in Swift on PostgreSQL, which the raw loop would not do).
    private let filterText = "complete eq false and priority ge 3"

    init(database: PostgresStorage, sizes: Sizes, reporter: Reporter) {
        self.database = database
        self.sizes = sizes
        self.reporter = reporter
    }

    func run() async throws {
        let schema = "bench_\(UInt32.random(in: 0...UInt32.max))"
        var arguments = instanceArguments(schema: schema) + ["--seed", "gettodo=\(sizes.rows)", "--run-tag", "g"]
        if sizes.pagingRows > 0 { arguments += ["--seed", "pagetodo=\(sizes.pagingRows)"] }
        reporter.note(
            "PostgreSQL \(database.host):\(database.port), schema \(schema); seeding \(sizes.rows) + "
                + "\(sizes.pagingRows) rows through the first instance")
        let seeding = Stopwatch.now()
        try await ServerProcess.with(arguments: arguments) { first in
            reporter.note("seeded in \(String(format: "%.1f", Stopwatch.seconds(since: seeding))) s")
            try await withRawClient { client in
                let raw = PostgresRawLoop(client: client, schema: schema)
                for count in sizes.instances {
                    try await withInstances(count - 1, schema: schema) { others in
                        let urls = [first.baseURL] + others
                        try await measureInserts(urls: urls, raw: raw)
                        try await measureQueries(urls: urls, raw: raw)
                    }
                }
                if sizes.pagingRows >= sizes.pageSize * 20 { try await measureDeepPaging(first.baseURL) }
                try await client.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \"\(schema)\" CASCADE"), logger: logger)
            }
        }
    }

    private var logger: Logger { Logger(label: "sync-bench.postgres") }

    private func instanceArguments(schema: String) -> [String] {
        [
            "--database", databaseURL, "--database-schema", schema, "--page-size", "\(sizes.pageSize)",
            "--max-top", "1000", "--rows", "0",
        ]
    }

    private var databaseURL: String {
        "postgres://\(database.username)\(database.password.map { ":" + $0 } ?? "")@\(database.host):\(database.port)/"
            + (database.database ?? database.username)
    }

    /// Runs `body` with `count` more instances started on the schema (none seeds anything).
    private func withInstances(_ count: Int, schema: String, _ body: ([URL]) async throws -> Void) async throws {
        guard count > 0 else { return try await body([]) }
        try await ServerProcess.with(arguments: instanceArguments(schema: schema)) { instance in
            try await withInstances(count - 1, schema: schema) { others in try await body([instance.baseURL] + others) }
        }
    }

    /// A PostgresNIO pool with one connection per client, running while `body` runs.
    private func withRawClient(_ body: (PostgresClient) async throws -> Void) async throws {
        var configuration = PostgresClient.Configuration(
            host: database.host, port: database.port, username: database.username, password: database.password,
            database: database.database, tls: .disable)
        configuration.options.maximumConnections = sizes.clients
        configuration.options.minimumConnections = sizes.clients
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        let running = Task { await client.run() }
        defer { running.cancel() }
        try await body(client)
    }

    // MARK: Figures

    /// Concurrent POSTs of new items, client `c` to instance `c % instances`, beside the raw insert loop.
    private func measureInserts(urls: [URL], raw: PostgresRawLoop) async throws {
        let tag = "\(urls.count)"
        // Warm-up: creates both tables, opens the pools' connections and the clients' keep-alive connections.
        let warmUp = try (0..<sizes.clients * 4).map { try BenchTodo.make($0, runTag: "w" + tag).jsonObject() }
        _ = try await post(warmUp, to: "posttodo" + tag, urls: urls)
        _ = try await post([BenchTodo.make(0, runTag: "c").jsonObject()], to: "rawtodo" + tag, urls: urls)
        _ = try await raw.insert(warmUp, into: "rawtodo" + tag, workers: sizes.clients)

        let items = try (0..<sizes.inserts).map { try BenchTodo.make($0, runTag: "p" + tag).jsonObject() }
        let (seconds, latency) = try await post(items, to: "posttodo" + tag, urls: urls)
        let rawSeconds = try await raw.insert(items, into: "rawtodo" + tag, workers: sizes.clients)
        reporter.report(
            BenchResult(
                suite: suite, name: "POST insert, \(urls.count) instance(s), \(sizes.clients) clients (curl)",
                unit: "requests/s", value: Double(items.count) / seconds, baseline: Double(items.count) / rawSeconds,
                count: items.count, seconds: seconds, p50: latency.p50, p99: latency.p99, latencyUnit: "µs",
                note: "baseline: the same statements through PostgresNIO, \(sizes.clients) connections"))
    }

    /// Concurrent filtered page GETs over the seeded table, beside the raw loop running the same `SELECT`s.
    private func measureQueries(urls: [URL], raw: PostgresRawLoop) async throws {
        let filter = try ODataFilterParser.parse(filterText)
        let encoded = filterText.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? filterText
        let pages = 20
        let queries = (0..<sizes.gets).map { index in
            StoreQuery(
                table: "gettodo", filter: filter, limit: sizes.pageSize, offset: (index % pages) * sizes.pageSize)
        }
        let paths = queries.map { query in
            "/tables/gettodo?$filter=\(encoded)&$top=\(sizes.pageSize)&$skip=\(query.offset)"
        }
        _ = try await get(Array(paths.prefix(sizes.clients * 4)), urls: urls)  // warm-up
        let (seconds, latency) = try await get(paths, urls: urls)
        let rawSeconds = try await raw.select(queries, workers: sizes.clients)
        reporter.report(
            BenchResult(
                suite: suite,
                name: "GET $filter=\(filterText) page of \(sizes.pageSize) over \(sizes.rows) rows, "
                    + "\(urls.count) instance(s), \(sizes.clients) clients (curl)",
                unit: "requests/s", value: Double(paths.count) / seconds, baseline: Double(queries.count) / rawSeconds,
                count: paths.count, seconds: seconds, p50: latency.p50, p99: latency.p99, latencyUnit: "µs",
                note: "baseline: the same SELECTs through PostgresNIO, \(sizes.clients) connections"))
    }

    /// First and last pages of the large table, keyset against `OFFSET`, on the first instance.
    private func measureDeepPaging(_ url: URL) async throws {
        let client = SyncClient(url: url, transport: try CurlTransport())
        let paging = DeepPaging(
            baseURL: url, client: client, table: "pagetodo", rows: sizes.pagingRows, pageSize: sizes.pageSize)
        try await paging.report(rounds: sizes.pagingRounds, suite: suite, to: reporter)
    }

    // MARK: Clients

    /// POSTs `items` from the clients concurrently; returns the seconds and every request's latency.
    private func post(_ items: [JSONObject], to table: String, urls: [URL]) async throws -> (Double, LatencyRecorder) {
        try await send(
            items.map { item in
                { base in
                    TransportRequest(
                        method: .post, url: try Self.url(base, "/tables/\(table)"),
                        headers: ["Content-Type": "application/json"], body: item.jsonBytes)
                }
            }, urls: urls, expecting: 201)
    }

    /// GETs `paths` from the clients concurrently.
    private func get(_ paths: [String], urls: [URL]) async throws -> (Double, LatencyRecorder) {
        try await send(
            paths.map { path in { base in TransportRequest(method: .get, url: try Self.url(base, path)) } },
            urls: urls, expecting: 200)
    }

    /// Deals the requests to the clients; client `c` sends its share in order to instance `c % instances`.
    private func send(
        _ requests: [@Sendable (URL) throws -> TransportRequest], urls: [URL], expecting status: Int
    ) async throws -> (Double, LatencyRecorder) {
        let shares = requests.shares(sizes.clients)
        let start = Stopwatch.now()
        let recorders = try await withThrowingTaskGroup(of: LatencyRecorder.self) { group in
            for (index, share) in shares.enumerated() {
                let base = urls[index % urls.count]
                group.addTask {
                    let client = SyncClient(url: base, transport: try CurlTransport())
                    return try await TimedRequests(client: client).run(
                        try share.map { try $0(base) }, expecting: status
                    ).1
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let seconds = Stopwatch.seconds(since: start)
        var merged = LatencyRecorder()
        for recorder in recorders { merged.merge(recorder) }
        return (seconds, merged)
    }

    private static func url(_ base: URL, _ pathAndQuery: String) throws -> URL {
        guard let url = URL(string: base.absoluteString + pathAndQuery) else {
            throw BenchError.unexpected("bad URL \(pathAndQuery)")
        }
        return url
    }
}
