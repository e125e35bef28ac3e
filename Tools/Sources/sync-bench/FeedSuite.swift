import Foundation
import Logging
@_spi(SyncTablesTools) import SyncTables
@_spi(SyncTablesTools) import SyncTablesCore

#if canImport(Glibc)
    import Glibc
#endif

/// The change feed: how soon a change pushed by one device is in another device's store (next to one
/// incremental pull), what idle feeds cost the server, and what feeds cost its writes. The server runs in a
/// child process, so its memory and CPU are its own.
struct FeedSuite {
    let reporter: Reporter
    let changes: Int
    let idleFeeds: Int
    let idleSeconds: Int
    let busyFeeds: Int
    let writes: Int

    func run() async throws {
        let feeds = max(idleFeeds, busyFeeds) + 10
        try await ServerProcess.with(arguments: ["--max-change-feeds", "\(feeds)"]) { server in
            try await latency(server)
            try await idleCost(server)
            try await pacedWrites(server)
            try await writeThroughput(server)
        }
    }

    // MARK: Latency

    /// p50 and p99 of push-returned → row-in-the-other-store, against one incremental pull bringing one row.
    private func latency(_ server: ServerProcess) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let table = "feedlatency"
        func context(_ name: String) async throws -> (SyncContext, SyncTable<BenchTodo>) {
            let context = try await SyncContext(
                store: try SQLiteStore(path: directory.file("\(name).sqlite")),
                client: SyncClient(url: server.baseURL, transport: try CurlTransport()))
            return (context, try await context.table(BenchTodo.self, named: table))
        }
        let (writer, writerTodos) = try await context("writer")
        let (prober, proberTodos) = try await context("prober")
        let (reader, readerTodos) = try await context("reader")

        // The baseline: one incremental pull that brings the one row just pushed.
        var pull = LatencyRecorder()
        try await proberTodos.pull(queryId: table)
        for index in 0..<changes {
            try await writerTodos.insert(BenchTodo.make(index, runTag: "p"))
            try await writer.push()
            let start = Stopwatch.now()
            let summary = try await proberTodos.pull(queryId: table)
            let elapsed = Stopwatch.now() - start
            guard summary.received == 1 else { throw BenchError.unexpected("a pull brought \(summary.received) rows") }
            pull.record(nanoseconds: elapsed)
        }

        let engine = SyncEngine(
            context: reader,
            definitions: [
                SyncDefinition(readerTodos, queryId: table, schedule: SyncSchedule(triggers: [.serverChange]))
            ],
            logger: Self.quietLogger)
        var reports = engine.cycleReports.makeAsyncIterator()
        await engine.start()
        // The first connection's catch-up brings the baseline's rows.
        while await reports.next()?.pulls.first?.summary.received ?? 0 < changes {}
        guard engine.status.changeFeed == .live else {
            throw BenchError.unexpected("the change feed is \(engine.status.changeFeed)")
        }

        var live = LatencyRecorder()
        var total: UInt64 = 0
        for index in changes..<(2 * changes) {
            try await writerTodos.insert(BenchTodo.make(index, runTag: "l"))
            try await writer.push()
            let start = Stopwatch.now()
            while true {
                guard let report = await reports.next() else { throw BenchError.unexpected("the engine stopped") }
                if report.pulls.contains(where: { $0.summary.received > 0 }) { break }
            }
            let elapsed = Stopwatch.now() - start
            live.record(nanoseconds: elapsed)
            total += elapsed
        }
        await engine.stop()
        for context in [writer, prober, reader] { try await context.close() }

        let seconds = Double(total) / 1e9
        reporter.report(
            BenchResult(
                suite: "feed", name: "push returned → row in another device's store (engine on the change feed)",
                unit: "ms (p50)", value: live.p50 / 1000, baseline: pull.p50 / 1000, count: changes, seconds: seconds,
                p50: live.p50 / 1000, p99: live.p99 / 1000, latencyUnit: "ms", target: "≤ 3 (p50 and p99)",
                note: "baseline: one incremental pull bringing one row, p50 \(Self.milliseconds(pull.p50)) ms, p99 "
                    + "\(Self.milliseconds(pull.p99)) ms; p99 ratio "
                    + String(format: "%.2f", live.p99 / max(pull.p99, 1)) + "; default serverChangeDebounce "
                    + "\(SyncEngineConfiguration().serverChangeDebounce)"))
    }

    // MARK: Writes with feeds

    /// 100 writes a second over 10 tables for `writes` writes, without feeds and with `busyFeeds` feeds that
    /// read every change: the rate the server keeps and the writes' latency.
    private func pacedWrites(_ server: ServerProcess) async throws {
        let without = try await timeWrites(server, round: 10, perSecond: 100)
        let feeds = try await openFeeds(busyFeeds, server: server)
        let with = try await timeWrites(server, round: 11, perSecond: 100)
        try await Task.sleep(for: .seconds(1))
        let heard = feeds.events.withLock { $0 }
        feeds.close()
        reporter.report(
            BenchResult(
                suite: "feed", name: "100 writes/s over 10 tables with \(busyFeeds) feeds reading every change",
                unit: "writes/s", value: Double(writes) / with.seconds, baseline: Double(writes) / without.seconds,
                count: writes, seconds: with.seconds, p50: with.latency.p50 / 1000, p99: with.latency.p99 / 1000,
                latencyUnit: "ms", target: "≥ 0.9",
                note: "baseline: the same paced writes without feeds (write p50 "
                    + Self.milliseconds(without.latency.p50) + " ms, p99 " + Self.milliseconds(without.latency.p99)
                    + " ms); the feeds heard \(heard) of \(writes * busyFeeds) changes"))
    }

    /// Writes over 10 tables as fast as 4 clients send them, without feeds, with `busyFeeds` feeds that read
    /// every change, and without again.
    private func writeThroughput(_ server: ServerProcess) async throws {
        let before = try await timeWrites(server, round: 0).seconds
        let feeds = try await openFeeds(busyFeeds, server: server)
        let with = try await timeWrites(server, round: 1).seconds
        try await Task.sleep(for: .seconds(1))  // the last events reach the feeds
        let heard = feeds.events.withLock { $0 }
        feeds.close()
        let after = try await timeWrites(server, round: 2).seconds
        let without = (before + after) / 2
        reporter.report(
            BenchResult(
                suite: "feed",
                name: "writes as fast as 4 clients send them with \(busyFeeds) feeds reading every change",
                unit: "writes/s", value: Double(writes) / with, baseline: Double(writes) / without, count: writes,
                seconds: with, target: "≥ 0.9",
                note: "baseline: the same writes without feeds, before (" + Self.rate(writes, before)
                    + "/s) and after ("
                    + Self.rate(writes, after) + "/s); 4 clients sending single POSTs; the feeds heard "
                    + "\(heard) of \(writes * busyFeeds) changes; the feeds' readers share the 2 cores"))
    }

    /// Sends `writes` inserts, round-robin over 10 tables, from 4 concurrent raw HTTP clients, as fast as
    /// they go or at `perSecond` in all; returns the seconds and the writes' latencies.
    private func timeWrites(_ server: ServerProcess, round: Int, perSecond: Int? = nil) async throws
        -> (seconds: Double, latency: LatencyRecorder)
    {
        let transport = try CurlTransport()
        let clients = 4
        let base = server.baseURL.absoluteString
        let writes = writes
        let start = Stopwatch.now()
        let latency = try await withThrowingTaskGroup(of: LatencyRecorder.self) { group in
            for client in 0..<clients {
                group.addTask {
                    var latency = LatencyRecorder()
                    for index in stride(from: client, to: writes, by: clients) {
                        if let perSecond {
                            // Write n is due n / rate seconds after the start.
                            let due = start + UInt64(Double(index) / Double(perSecond) * 1e9)
                            let now = Stopwatch.now()
                            if due > now { try await Task.sleep(for: .nanoseconds(Int64(due - now))) }
                        }
                        let item = try BenchTodo.make(index, runTag: "w\(round)").jsonObject()
                        guard let url = URL(string: "\(base)/tables/feedwrites\(index % 10)") else {
                            throw BenchError.unexpected("bad URL \(base)")
                        }
                        var request = TransportRequest(
                            method: .post, url: url, body: JSONValue.object(item).jsonBytes, timeout: .seconds(30))
                        request.headers["Content-Type"] = "application/json"
                        request.headers["ZUMO-API-VERSION"] = "2.0.0"
                        let sent = Stopwatch.now()
                        let response = try await transport.send(request)
                        latency.record(nanoseconds: Stopwatch.now() - sent)
                        guard response.status == 201 else {
                            throw BenchError.unexpected("a write answered \(response.status)")
                        }
                    }
                    return latency
                }
            }
            var all = LatencyRecorder()
            for try await recorder in group { all.merge(recorder) }
            return all
        }
        return (Stopwatch.seconds(since: start), latency)
    }

    // MARK: Idle feeds

    /// The server's memory per idle feed and its CPU with `idleFeeds` idle feeds, next to none.
    private func idleCost(_ server: ServerProcess) async throws {
        // The work before leaves some behind (a checkpoint, freed memory): it settles first.
        try await Task.sleep(for: .seconds(10))
        let residentBefore = try Self.residentKiB(of: server.pid)
        let cpuBefore = try await Self.cpuMilliseconds(of: server.pid, over: idleSeconds)
        let feeds = try await openFeeds(idleFeeds, server: server)
        try await Task.sleep(for: .seconds(5))
        let residentWith = try Self.residentKiB(of: server.pid)
        let cpuWith = try await Self.cpuMilliseconds(of: server.pid, over: idleSeconds)
        feeds.close()
        try await Task.sleep(for: .seconds(5))
        let cpuAfter = try await Self.cpuMilliseconds(of: server.pid, over: idleSeconds)
        let perMinute = 60 / Double(idleSeconds)
        reporter.report(
            BenchResult(
                suite: "feed", name: "server memory per idle feed (\(idleFeeds) feeds)", unit: "KiB",
                value: (residentWith - residentBefore) / Double(idleFeeds), count: idleFeeds, seconds: 0,
                note: "resident set of the server process: \(Int(residentBefore / 1024)) MiB without feeds, "
                    + "\(Int(residentWith / 1024)) MiB with them"))
        reporter.report(
            BenchResult(
                suite: "feed", name: "server CPU with \(idleFeeds) idle feeds", unit: "ms/min",
                value: cpuWith * perMinute, baseline: (cpuBefore + cpuAfter) / 2 * perMinute, count: idleFeeds,
                seconds: Double(3 * idleSeconds),
                note: "baseline: the same idle server without feeds, before ("
                    + String(format: "%.0f", cpuBefore * perMinute)
                    + ") and after (" + String(format: "%.0f", cpuAfter * perMinute)
                    + "); one heartbeat per feed every 15 s"))
    }

    // MARK: Feeds

    /// Feeds open on the server, each read by a task of its own that counts the changes it hears.
    final class OpenFeeds: Sendable {
        let tasks: LockedState<[Task<Void, Never>]> = LockedState([])
        let events = LockedState(0)

        func close() {
            for task in tasks.withLock({ $0 }) { task.cancel() }
        }
    }

    /// Opens `count` feeds through SyncTables' own client and waits until every one is live.
    private func openFeeds(_ count: Int, server: ServerProcess) async throws -> OpenFeeds {
        let feeds = OpenFeeds()
        let ready = LockedState(0)
        let failed = LockedState<String?>(nil)
        let client = SyncClient(url: server.baseURL, transport: try CurlTransport())
        for _ in 0..<count {
            let task = Task {
                do {
                    guard let feed = try await client.changeFeed(logger: Self.quietLogger) else {
                        failed.withLock { $0 = "the server offers no feed" }
                        return
                    }
                    for try await event in feed {
                        switch event {
                        case .ready: ready.withLock { $0 += 1 }
                        case .changed: feeds.events.withLock { $0 += 1 }
                        case .reset, .heartbeat: break
                        }
                    }
                } catch {
                    if !Task.isCancelled { failed.withLock { $0 = "\(error)" } }
                }
            }
            feeds.tasks.withLock { $0.append(task) }
        }
        while ready.withLock({ $0 }) < count {
            if let reason = failed.withLock({ $0 }) {
                feeds.close()
                throw BenchError.unexpected("a feed failed: \(reason)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return feeds
    }

    // MARK: Process figures

    /// The resident set of process `pid` (`VmRSS` in `/proc/<pid>/status`), in KiB.
    private static func residentKiB(of pid: Int32) throws -> Double {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 2, let kib = Double(fields[1]) { return kib }
        }
        throw BenchError.unexpected("no VmRSS for process \(pid)")
    }

    /// The CPU time process `pid` used during `seconds`, in milliseconds (`utime` + `stime` of `/proc/<pid>/stat`).
    private static func cpuMilliseconds(of pid: Int32, over seconds: Int) async throws -> Double {
        let before = try cpuTicks(of: pid)
        try await Task.sleep(for: .seconds(seconds))
        return Double(try cpuTicks(of: pid) - before) * 1000 / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    private static func cpuTicks(of pid: Int32) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // The command name may hold spaces: the fields counted from after its closing parenthesis.
        guard let close = stat.lastIndex(of: ")") else { throw BenchError.unexpected("unreadable stat") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // State is field 3 of the whole line, the first after the name; utime and stime are 14 and 15.
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else {
            throw BenchError.unexpected("unreadable stat")
        }
        return user + system
    }

    private static func milliseconds(_ microseconds: Double) -> String {
        String(format: "%.2f", microseconds / 1000)
    }

    private static func rate(_ count: Int, _ seconds: Double) -> String {
        String(format: "%.0f", Double(count) / seconds)
    }

    static let quietLogger: Logger = {
        var logger = Logger(label: "sync-bench.feed")
        logger.logLevel = .error
        return logger
    }()
}
