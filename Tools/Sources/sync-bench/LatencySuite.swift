import Foundation
import SlowLink
@_spi(SyncTablesTools) import SyncTables
import SyncTablesServer

/// Push and pull over a simulated slow link (`SlowLinkProxy` between the client and an in-process server).
///
/// The per-operation baseline of push is measured in the same run on fewer operations (at 50 ms it is
/// about 20 operations a second) and the rates are compared, so the suite stays short.
struct LatencySuite {
    let reporter: Reporter
    let link: SlowLinkConfiguration

    struct PushSizes {
        var operations: Int
        var baselineOperations: Int
        var concurrentOperations: Int
        var batchSize: Int
        var concurrency: Int
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private var linkText: String {
        let rtt = (link.oneWayDelay * 2).components
        let milliseconds = rtt.seconds * 1000 + rtt.attoseconds / 1_000_000_000_000_000
        return "\(milliseconds) ms RTT" + (link.bitsPerSecond.map { ", \(Double($0) / 1e6) Mbit/s" } ?? "")
    }

    func push(_ sizes: PushSizes) async throws {
        let harness = try await ServerHarness.start(pageSize: 50, maxTop: 1000, maxBatchOperations: sizes.batchSize)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let proxy = try await SlowLinkProxy(upstreamPort: harness.server.port ?? 0, link: link)
        do {
            reporter.note("push over a simulated link of \(linkText) (SlowLinkProxy)")
            let client = SyncClient(url: proxy.url, transport: try CurlTransport())
            let baseline = try await timePush(
                sizes.baselineOperations, options: PushOptions(batchSize: 1), client: client, directory: directory,
                tag: "p")
            let baselineRate = Double(sizes.baselineOperations) / baseline
            reporter.report(
                BenchResult(
                    suite: "push-latency", name: "push \(sizes.baselineOperations) operations one request each",
                    unit: "operations/s", value: baselineRate, baseline: nil, count: sizes.baselineOperations,
                    seconds: baseline, note: linkText))

            let batched = try await timePush(
                sizes.operations, options: PushOptions(batchSize: sizes.batchSize), client: client,
                directory: directory, tag: "b")
            reporter.report(
                BenchResult(
                    suite: "push-latency",
                    name: "push \(sizes.operations) operations in batches of \(sizes.batchSize)",
                    unit: "operations/s", value: Double(sizes.operations) / batched, baseline: baselineRate,
                    count: sizes.operations, seconds: batched, target: "≥ 20× the per-operation rate",
                    note: "baseline: one request per operation, same run; \(linkText)"))

            let concurrent = try await timePush(
                sizes.concurrentOperations,
                options: PushOptions(batchSize: 1, maxConcurrentRequests: sizes.concurrency),
                client: client, directory: directory, tag: "c")
            reporter.report(
                BenchResult(
                    suite: "push-latency",
                    name: "push \(sizes.concurrentOperations) operations with \(sizes.concurrency) concurrent requests",
                    unit: "operations/s", value: Double(sizes.concurrentOperations) / concurrent,
                    baseline: baselineRate, count: sizes.concurrentOperations, seconds: concurrent,
                    target: "≥ 5× the per-operation rate",
                    note: "baseline: one request per operation, same run; \(linkText)"))
        } catch {
            try? await proxy.close()
            try? await harness.stop()
            throw error
        }
        try await proxy.close()
        try await harness.stop()
    }

    /// Pulls `rows` over loopback and over the link, compressed (the server gzips, the client decodes) and
    /// not (a sibling server on the same store that never compresses), and compares the compressed pull's
    /// time with the round trips it must wait for plus the same pull's loopback time (which holds all the
    /// local work).
    func pull(rows: Int, pageSize: Int) async throws {
        let harness = try await ServerHarness.start(pageSize: pageSize, maxTop: max(1000, pageSize))
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let plain = try await harness.startSiblingWithoutCompression()
        let proxy = try await SlowLinkProxy(upstreamPort: harness.server.port ?? 0, link: link)
        let plainProxy = try await SlowLinkProxy(upstreamPort: plain.server.port ?? 0, link: link)
        do {
            try await harness.seed(table: "latencypull", count: rows, runTag: "l")
            reporter.note("pull over a simulated link of \(linkText) (SlowLinkProxy)")
            let loopback = try await timePull(
                client: SyncClient(url: harness.baseURL, transport: try CurlTransport()), pageSize: pageSize,
                directory: directory, tag: "loopback")
            let uncompressed = try await timePull(
                client: SyncClient(url: plainProxy.url, transport: try CurlTransport()), pageSize: pageSize,
                directory: directory, tag: "plain")
            let compressed = try await timePull(
                client: SyncClient(url: proxy.url, transport: try CurlTransport()), pageSize: pageSize,
                directory: directory, tag: "gzip")
            let roundTrips = Double(compressed.requests) * Self.seconds(link.oneWayDelay * 2)
            reporter.report(
                BenchResult(
                    suite: "pull-latency",
                    name: "incremental pull of \(rows) rows over the link, page size \(pageSize), gzip", unit: "s",
                    value: compressed.seconds, baseline: roundTrips + loopback.seconds, count: compressed.received,
                    seconds: compressed.seconds, target: "ratio ≤ 1.25",
                    note: "baseline: \(compressed.requests) requests × RTT + the same pull over loopback "
                        + String(format: "(%.2f s)", loopback.seconds) + "; \(linkText)"))
            reporter.report(
                BenchResult(
                    suite: "pull-latency",
                    name: "incremental pull of \(rows) rows, page size \(pageSize), gzip against uncompressed",
                    unit: "rows/s", value: Double(compressed.received) / compressed.seconds,
                    baseline: Double(uncompressed.received) / uncompressed.seconds, count: compressed.received,
                    seconds: compressed.seconds, target: "≥ 3× the uncompressed rate",
                    note: "baseline: the same pull from a server on the same store that does not compress "
                        + String(format: "(%.2f s)", uncompressed.seconds) + "; \(linkText)"))
        } catch {
            try? await proxy.close()
            try? await plainProxy.close()
            try? await plain.server.stop()
            try? await harness.stop()
            throw error
        }
        try await proxy.close()
        try await plainProxy.close()
        try await plain.server.stop()
        try await harness.stop()
    }

    private func timePull(client: SyncClient, pageSize: Int, directory: TemporaryDirectory, tag: String)
        async throws -> (seconds: Double, requests: Int, received: Int)
    {
        let context = try await SyncContext(
            store: try SQLiteStore(path: directory.file("pull-\(tag).sqlite")), client: client)
        let table = try await context.table(BenchTodo.self, named: "latencypull")
        var summary = PullSummary()
        let seconds = try await Stopwatch.time {
            summary = try await table.pull(queryId: "all", options: PullOptions(pageSize: pageSize))
        }
        try await context.close()
        return (seconds, summary.requests, summary.received)
    }

    /// Queues `count` inserts in a new store and times one push of them with these options.
    private func timePush(
        _ count: Int, options: PushOptions, client: SyncClient, directory: TemporaryDirectory, tag: String
    ) async throws -> Double {
        let context = try await SyncContext(
            store: try SQLiteStore(path: directory.file("push-\(tag).sqlite")), client: client)
        let table = try await context.table(BenchTodo.self, named: "latency\(tag)")
        try await table.insert(contentsOf: (0..<count).map { BenchTodo.make($0, runTag: tag) })
        var summary: PushSummary?
        let seconds = try await Stopwatch.time { summary = try await context.push(options: options) }
        try await context.close()
        guard summary?.pushedOperations == count else {
            throw BenchError.unexpected("pushed \(summary?.pushedOperations ?? 0) of \(count)")
        }
        return seconds
    }
}
