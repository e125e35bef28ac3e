import Foundation
@_spi(SyncTablesTools) import SyncTables
import SyncTablesServer

/// The reference-backend suite: POST and filtered paged GET against an in-process server over real HTTP.
struct ServerSuite {
    struct Sizes {
        var inserts: Int
        var rows: Int
        var gets: Int
        var transportGets: Int
        var pageSize: Int
        /// Rows of the table read page by page from both ends (0 skips that figure).
        var pagingRows: Int
        var pagingRounds: Int
    }

    let sizes: Sizes
    let reporter: Reporter
    private let suite = "server"

    init(sizes: Sizes, reporter: Reporter) {
        self.sizes = sizes
        self.reporter = reporter
    }

    func run() async throws {
        let harness = try await ServerHarness.start(pageSize: sizes.pageSize, maxTop: 1000)
        do {
            try await measure(harness)
        } catch {
            try? await harness.stop()
            throw error
        }
        try await harness.stop()
    }

    private func measure(_ harness: ServerHarness) async throws {
        let curl = SyncClient(url: harness.baseURL, transport: try CurlTransport())
        reporter.note(
            "server at \(harness.baseURL.absoluteString), file-backed SQLiteStore, page size \(sizes.pageSize)")

        // POST inserts; baseline: the same items written straight into the server's store, one per transaction.
        let posts = try (0..<sizes.inserts).map { index in
            TransportRequest(
                method: .post, url: try harness.url("/tables/posttodo"),
                headers: ["Content-Type": "application/json"],
                body: try BenchTodo.make(index, runTag: "p").jsonObject().jsonBytes)
        }
        let (postSeconds, postLatency) = try await TimedRequests(client: curl).run(posts, expecting: 201)
        let direct = try (0..<sizes.inserts).map { try BenchTodo.make($0, runTag: "d").jsonObject() }
        try await harness.store.defineTable(TableDefinition(name: "directtodo"))
        let directSeconds = try await Stopwatch.time {
            for item in direct {
                try await harness.store.write { try $0.upsert(table: "directtodo", items: [item]) }
            }
        }
        reporter.report(
            BenchResult(
                suite: suite, name: "POST /tables/{table} insert (CurlTransport, keep-alive)", unit: "requests/s",
                value: Double(posts.count) / postSeconds, baseline: Double(direct.count) / directSeconds,
                count: posts.count, seconds: postSeconds, p50: postLatency.p50, p99: postLatency.p99,
                latencyUnit: "µs", note: "baseline: the server's store upserting one row per transaction"))

        // Paged, filtered GET over the seeded rows.
        let seedSeconds = try await Stopwatch.time {
            try await harness.seed(table: "gettodo", count: sizes.rows, runTag: "g")
        }
        reporter.note("seeded \(sizes.rows) rows in \(String(format: "%.1f", seedSeconds)) s")
        let filterText = "complete eq false and startswith(text,'Buy')"
        let encodedFilter = filterText.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? filterText
        let pages = 20
        let gets = try (0..<sizes.gets).map { index in
            TransportRequest(
                method: .get,
                url: try harness.url(
                    "/tables/gettodo?$filter=\(encodedFilter)&$top=\(sizes.pageSize)&$skip=\((index % pages) * sizes.pageSize)"
                ))
        }
        let (getSeconds, getLatency) = try await TimedRequests(client: curl).run(gets, expecting: 200)
        let filter = try ODataFilterParser.parse(filterText)
        let reads = (0..<sizes.gets).map { index in
            StoreQuery(
                table: "gettodo", filter: filter, limit: sizes.pageSize, offset: (index % pages) * sizes.pageSize)
        }
        let readSeconds = try await Stopwatch.time {
            for query in reads { _ = try await harness.store.read(query) }
        }
        reporter.report(
            BenchResult(
                suite: suite,
                name: "GET $filter=\(filterText) page of \(sizes.pageSize) over \(sizes.rows) rows (curl)",
                unit: "requests/s", value: Double(gets.count) / getSeconds, baseline: Double(reads.count) / readSeconds,
                count: gets.count, seconds: getSeconds, p50: getLatency.p50, p99: getLatency.p99, latencyUnit: "µs",
                note: "baseline: the same page read straight from the server's store (no HTTP)"))

        // The same GET, sequentially, through each transport.
        let sample = Array(gets.prefix(sizes.transportGets))
        let (curlSeconds, curlLatency) = try await TimedRequests(client: curl).run(sample, expecting: 200)
        let urlSession = SyncClient(url: harness.baseURL, transport: URLSessionTransport())
        let (sessionSeconds, sessionLatency) = try await TimedRequests(client: urlSession).run(sample, expecting: 200)
        reporter.report(
            BenchResult(
                suite: suite, name: "same GET, sequential, CurlTransport", unit: "requests/s",
                value: Double(sample.count) / curlSeconds, baseline: nil, count: sample.count, seconds: curlSeconds,
                p50: curlLatency.p50, p99: curlLatency.p99, latencyUnit: "µs"))
        reporter.report(
            BenchResult(
                suite: suite, name: "same GET, sequential, URLSessionTransport", unit: "requests/s",
                value: Double(sample.count) / sessionSeconds, baseline: Double(sample.count) / curlSeconds,
                count: sample.count, seconds: sessionSeconds, p50: sessionLatency.p50, p99: sessionLatency.p99,
                latencyUnit: "µs", note: "baseline: CurlTransport"))

        if sizes.pagingRows >= sizes.pageSize * 20 { try await measureDeepPaging(harness, client: curl) }
    }

    /// First and last pages of a large table, keyset (`$skiptoken`) against `OFFSET` (`$skip`).
    private func measureDeepPaging(_ harness: ServerHarness, client: SyncClient) async throws {
        let seedSeconds = try await Stopwatch.time {
            try await harness.seed(table: "pagetodo", count: sizes.pagingRows, runTag: "k")
        }
        reporter.note("seeded \(sizes.pagingRows) rows in \(String(format: "%.1f", seedSeconds)) s")
        let paging = DeepPaging(
            baseURL: harness.baseURL, client: client, table: "pagetodo", rows: sizes.pagingRows,
            pageSize: sizes.pageSize)
        try await paging.report(rounds: sizes.pagingRounds, suite: suite, to: reporter)
    }
}
