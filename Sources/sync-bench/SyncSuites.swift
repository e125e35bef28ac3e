import Foundation
import SyncTables
import SyncTablesServer

/// The push and pull suites: whole sync actions against an in-process server.
struct SyncSuites {
    let reporter: Reporter

    // MARK: Push

    func push(operations: Int) async throws {
        let harness = try await ServerHarness.start(pageSize: 50, maxTop: 1000)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        do {
            let client = SyncClient(url: harness.baseURL, transport: try CurlTransport())
            let context = try await SyncContext(
                store: try SQLiteStore(path: directory.file("push.sqlite")), client: client)
            let table = try await context.table(BenchTodo.self, named: "pushtodo")
            try await table.insert(contentsOf: (0..<operations).map { BenchTodo.make($0, runTag: "q") })
            ProcessMemory.resetPeak()
            var summary: PushSummary?
            let seconds = try await Stopwatch.time { summary = try await context.push() }
            let peak = ProcessMemory.peakResidentMiB()
            try await context.close()

            let posts = try (0..<operations).map { index in
                TransportRequest(
                    method: .post, url: try harness.url("/tables/pushraw"),
                    headers: ["Content-Type": "application/json"],
                    body: try BenchTodo.make(index, runTag: "r").jsonObject().jsonBytes)
            }
            let (baselineSeconds, latency) = try await TimedRequests(client: client).run(posts, expecting: 201)
            reporter.report(
                BenchResult(
                    suite: "push", name: "push \(operations) queued inserts", unit: "operations/s",
                    value: Double(summary?.pushedOperations ?? 0) / seconds,
                    baseline: Double(operations) / baselineSeconds, count: summary?.pushedOperations ?? 0,
                    seconds: seconds, p50: latency.p50, p99: latency.p99, latencyUnit: "µs (baseline POSTs)",
                    note: "baseline: keep-alive loop of the same POSTs; peak RSS during push "
                        + (peak.map { String(format: "%.1f MiB", $0) } ?? "n/a")))
        } catch {
            try? await harness.stop()
            throw error
        }
        try await harness.stop()
    }

    // MARK: Pull

    func pull(rows: Int, pageSizes: [Int]) async throws {
        let harness = try await ServerHarness.start(pageSize: 1000, maxTop: 1000)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        do {
            try await harness.seed(table: "pulltodo", count: rows, runTag: "l")
            let client = SyncClient(url: harness.baseURL, transport: try CurlTransport())
            for pageSize in pageSizes {
                try await pullOnce(
                    harness: harness, client: client, rows: rows, pageSize: pageSize, directory: directory)
            }
        } catch {
            try? await harness.stop()
            throw error
        }
        try await harness.stop()
    }

    private func pullOnce(
        harness: ServerHarness, client: SyncClient, rows: Int, pageSize: Int, directory: TemporaryDirectory
    ) async throws {
        let store = try SQLiteStore(path: directory.file("pull-\(pageSize).sqlite"))
        let context = try await SyncContext(store: store, client: client)
        let table = try await context.table(BenchTodo.self, named: "pulltodo")
        ProcessMemory.resetPeak()
        var summary = PullSummary()
        let seconds = try await Stopwatch.time {
            summary = try await table.pull(queryId: "all", options: PullOptions(pageSize: pageSize))
        }
        let peak = ProcessMemory.peakResidentMiB()
        try await context.close()

        // Baseline: the raw GET loop over the same pages, each row inserted raw (one transaction per page).
        let raw = try RawSQLite(path: directory.file("raw-pull-\(pageSize).sqlite"), synchronous: "FULL")
        var received = 0
        let baselineSeconds = try await Stopwatch.time {
            var skip = 0
            while true {
                let url = try harness.url("/tables/pulltodo?$orderby=updatedAt&$top=\(pageSize)&$skip=\(skip)")
                let response = try await client.send(TransportRequest(method: .get, url: url))
                guard response.status == 200, let items = try JSONValue(parsing: response.body).arrayValue else {
                    throw BenchError.unexpected("raw GET answered \(response.status)")
                }
                let page = items.compactMap { item -> RawRow? in
                    guard let object = item.objectValue else { return nil }
                    return RawRow(
                        id: object.id, json: item.jsonString, complete: object["complete"]?.boolValue ?? false,
                        text: object["text"]?.stringValue ?? "")
                }
                try raw.insertInOneTransaction(page[...])
                received += page.count
                skip += items.count
                if items.count < pageSize { break }
            }
        }
        try raw.close()
        reporter.report(
            BenchResult(
                suite: "pull", name: "incremental pull of \(rows) rows, client page size \(pageSize)", unit: "rows/s",
                value: Double(summary.received) / seconds, baseline: Double(received) / baselineSeconds,
                count: summary.received, seconds: seconds,
                note: "\(summary.requests) requests; peak RSS during pull "
                    + (peak.map { String(format: "%.1f MiB", $0) } ?? "n/a")
                    + "; baseline: raw GET loop ($top/$skip) + raw SQLite inserts, \(received) rows"))
    }
}

extension ProcessMemory {
    /// Resets the kernel's peak-RSS mark (VmHWM) so the next reading covers only what follows.
    static func resetPeak() {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return }
        try? handle.write(contentsOf: Data("5".utf8))
        try? handle.close()
    }
}
