import Foundation
@_spi(SyncTablesTools) import SyncTables
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
            let before = ProcessMemory.residentMiB()
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
            let engineSeconds = try await pushThroughEngine(
                operations: operations, client: client, directory: directory)
            reporter.report(
                BenchResult(
                    suite: "push", name: "push \(operations) queued inserts through SyncEngine.syncNow()",
                    unit: "operations/s", value: Double(operations) / engineSeconds,
                    baseline: Double(summary?.pushedOperations ?? 0) / seconds, count: operations,
                    seconds: engineSeconds, note: "baseline: the direct context.push() above, same run"))

            let (baselineSeconds, latency) = try await TimedRequests(client: client).run(posts, expecting: 201)
            reporter.report(
                BenchResult(
                    suite: "push", name: "push \(operations) queued inserts", unit: "operations/s",
                    value: Double(summary?.pushedOperations ?? 0) / seconds,
                    baseline: Double(operations) / baselineSeconds, count: summary?.pushedOperations ?? 0,
                    seconds: seconds, p50: latency.p50, p99: latency.p99, latencyUnit: "µs (baseline POSTs)",
                    note: "baseline: keep-alive loop of the same POSTs; in-process server; "
                        + ProcessMemory.describeGrowth(before: before, peak: peak)))
        } catch {
            try? await harness.stop()
            throw error
        }
        try await harness.stop()
    }

    /// Queues the same inserts in a new store and times one engine cycle that pushes them.
    private func pushThroughEngine(operations: Int, client: SyncClient, directory: TemporaryDirectory) async throws
        -> Double
    {
        let context = try await SyncContext(
            store: try SQLiteStore(path: directory.file("push-engine.sqlite")), client: client)
        let table = try await context.table(BenchTodo.self, named: "pushengine")
        try await table.insert(contentsOf: (0..<operations).map { BenchTodo.make($0, runTag: "e") })
        let engine = SyncEngine(context: context, definitions: [])
        var report: SyncCycleReport?
        let seconds = await Stopwatch.time { report = await engine.syncNow(reason: "benchmark") }
        try await context.close()
        guard report?.pushedOperations == operations else {
            throw BenchError.unexpected("the engine pushed \(report?.pushedOperations ?? 0) of \(operations)")
        }
        return seconds
    }

    // MARK: Pull

    /// With `serverProcess` the server runs in a child process, so the memory figures are the client's alone.
    func pull(rows: Int, pageSizes: [Int], serverProcess: Bool) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        if serverProcess {
            reporter.note("server: child process (sync-bench serve); RSS figures are the client's only")
            try await ServerProcess.with(pageSize: 1000, maxTop: 1000, table: "pulltodo", rows: rows, runTag: "l") {
                server in
                let client = SyncClient(url: server.baseURL, transport: try CurlTransport())
                let legacy = SyncClient(url: server.baseURLWithoutKeysets, transport: try CurlTransport())
                for pageSize in pageSizes {
                    try await pullOnce(
                        url: server.url, client: client, legacyClient: legacy, rows: rows, pageSize: pageSize,
                        directory: directory)
                }
            }
            return
        }
        reporter.note("server: in-process; RSS figures include it")
        let harness = try await ServerHarness.start(pageSize: 1000, maxTop: 1000)
        do {
            try await harness.seed(table: "pulltodo", count: rows, runTag: "l")
            let client = SyncClient(url: harness.baseURL, transport: try CurlTransport())
            let sibling = try await harness.startSiblingWithoutKeysets()
            let legacy = SyncClient(url: sibling.url, transport: try CurlTransport())
            for pageSize in pageSizes {
                try await pullOnce(
                    url: harness.url, client: client, legacyClient: legacy, rows: rows, pageSize: pageSize,
                    directory: directory)
            }
            try await sibling.server.stop()
        } catch {
            try? await harness.stop()
            throw error
        }
        try await harness.stop()
    }

    private func pullOnce(
        url: (String) throws -> URL, client: SyncClient, legacyClient: SyncClient, rows: Int, pageSize: Int,
        directory: TemporaryDirectory
    ) async throws {
        let store = try SQLiteStore(path: directory.file("pull-\(pageSize).sqlite"))
        let context = try await SyncContext(store: store, client: client)
        let table = try await context.table(BenchTodo.self, named: "pulltodo")
        ProcessMemory.resetPeak()
        let before = ProcessMemory.residentMiB()
        var summary = PullSummary()
        let seconds = try await Stopwatch.time {
            summary = try await table.pull(queryId: "all", options: PullOptions(pageSize: pageSize))
        }
        let peak = ProcessMemory.peakResidentMiB()
        try await context.close()

        try await compareKeysetPull(
            client: client, legacyClient: legacyClient, rows: rows, pageSize: pageSize,
            directory: directory)

        let engineContext = try await SyncContext(
            store: try SQLiteStore(path: directory.file("pull-engine-\(pageSize).sqlite")), client: client)
        let engineTable = try await engineContext.table(BenchTodo.self, named: "pulltodo")
        let engine = SyncEngine(
            context: engineContext,
            definitions: [SyncDefinition(engineTable, queryId: "all", pullOptions: PullOptions(pageSize: pageSize))])
        var engineReport: SyncCycleReport?
        let engineSeconds = await Stopwatch.time { engineReport = await engine.syncNow(reason: "benchmark") }
        try await engineContext.close()
        let engineReceived = engineReport?.pulls.first?.summary.received ?? 0
        reporter.report(
            BenchResult(
                suite: "pull",
                name: "incremental pull of \(rows) rows through SyncEngine.syncNow(), page size \(pageSize)",
                unit: "rows/s", value: Double(engineReceived) / engineSeconds,
                baseline: Double(summary.received) / seconds, count: engineReceived, seconds: engineSeconds,
                note: "baseline: the direct table.pull(queryId:) just before, same run"))

        // Baseline: the raw GET loop over the same pages, each row inserted raw (one transaction per page).
        let raw = try RawSQLite(
            path: directory.file("raw-pull-\(pageSize).sqlite"),
            synchronous: SQLiteStore.Configuration().synchronous.rawValue)
        var received = 0
        let baselineSeconds = try await Stopwatch.time {
            var skip = 0
            while true {
                let pageURL = try url("/tables/pulltodo?$orderby=updatedAt&$top=\(pageSize)&$skip=\(skip)")
                let response = try await client.send(TransportRequest(method: .get, url: pageURL))
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
                note: "\(summary.requests) requests; " + ProcessMemory.describeGrowth(before: before, peak: peak)
                    + "; baseline: raw GET loop ($top/$skip) + raw SQLite inserts, \(received) rows"))
    }
}

extension SyncSuites {
    /// The keyset pull against the same pull from a server without keyset pulls (`updatedAt ge` + `$skip`),
    /// each twice into fresh stores, in the order keyset, `$skip`, `$skip`, keyset, so that neither always
    /// meets the server cold.
    fileprivate func compareKeysetPull(
        client: SyncClient, legacyClient: SyncClient, rows: Int, pageSize: Int, directory: TemporaryDirectory
    ) async throws {
        var seconds = (keyset: 0.0, legacy: 0.0)
        var received = (keyset: 0, legacy: 0)
        var requests = (keyset: 0, legacy: 0)
        for (round, keyset) in [true, false, false, true].enumerated() {
            let context = try await SyncContext(
                store: try SQLiteStore(path: directory.file("pull-compare-\(pageSize)-\(round).sqlite")),
                client: keyset ? client : legacyClient)
            let table = try await context.table(BenchTodo.self, named: "pulltodo")
            var summary = PullSummary()
            let elapsed = try await Stopwatch.time {
                summary = try await table.pull(queryId: "all", options: PullOptions(pageSize: pageSize))
            }
            try await context.close()
            if keyset {
                (seconds.keyset, received.keyset, requests.keyset) =
                    (seconds.keyset + elapsed, received.keyset + summary.received, summary.requests)
            } else {
                (seconds.legacy, received.legacy, requests.legacy) =
                    (seconds.legacy + elapsed, received.legacy + summary.received, summary.requests)
            }
        }
        reporter.report(
            BenchResult(
                suite: "pull", name: "incremental pull of \(rows) rows by keyset, page size \(pageSize)",
                unit: "rows/s", value: Double(received.keyset) / seconds.keyset,
                baseline: Double(received.legacy) / seconds.legacy, count: received.keyset, seconds: seconds.keyset,
                note: "two pulls of \(requests.keyset) requests; baseline: two pulls of the same rows from a server "
                    + "without keyset pulls (updatedAt ge + $skip, \(requests.legacy) requests), order K L L K"))
    }
}

extension ProcessMemory {
    /// Resets the kernel's peak-RSS mark (VmHWM) so the next reading covers only what follows.
    static func resetPeak() {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return }
        try? handle.write(contentsOf: Data("5".utf8))
        try? handle.close()
    }

    /// "RSS 41.0 MiB before, peak 60.2 MiB (growth 19.2 MiB)", or what is known of it.
    static func describeGrowth(before: Double?, peak: Double?) -> String {
        guard let peak else { return "peak RSS n/a" }
        guard let before else { return String(format: "peak RSS %.1f MiB", peak) }
        return String(format: "RSS %.1f MiB before, peak %.1f MiB (growth %.1f MiB)", before, peak, peak - before)
    }
}
