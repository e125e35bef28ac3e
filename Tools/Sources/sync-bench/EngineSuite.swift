import Foundation
import Logging
@_spi(SyncTablesTools) import SyncTables
import SyncTablesServer
import SyncTablesServerTesting

/// The engine's own costs: CPU while it waits with nothing to do, and the time from a trigger to the first
/// request reaching the server.
struct EngineSuite {
    let reporter: Reporter

    /// CPU of one idle engine, amplified: `engines` contexts (each on its own store file, each having pulled
    /// its three tables once, so its transport is warm) are measured over `seconds` without engines, then
    /// with an engine of three definitions started and idle on each, then again without (engines stopped).
    /// One engine's share is (with − mean of without) ÷ `engines`: the runtime's own idle CPU moves by a few
    /// ms/min between minutes, which a single engine's share would drown in. The server runs in a child process.
    func idleCPU(seconds: Int, engines count: Int) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let names = ["idleone", "idletwo", "idlethree"]
        try await ServerProcess.with(pageSize: 50, maxTop: 1000, table: names[0], rows: 0, runTag: "i") { server in
            var devices: [(context: SyncContext, tables: [SyncTable<BenchTodo>])] = []
            for index in 0..<count {
                let context = try await SyncContext(
                    store: try SQLiteStore(path: directory.file("idle-\(index).sqlite")),
                    client: SyncClient(url: server.baseURL))
                var tables: [SyncTable<BenchTodo>] = []
                for name in names {
                    let table = try await context.table(BenchTodo.self, named: name)
                    try await table.pull(queryId: name)
                    tables.append(table)
                }
                devices.append((context, tables))
            }
            let before = try await Self.cpuMilliseconds(over: seconds)

            let schedule = SyncSchedule(
                interval: .seconds(3_600), triggers: [.appStart, .networkReconnect, .foreground])
            var engines: [SyncEngine] = []
            for device in devices {
                let definitions = zip(device.tables, names).map { table, name in
                    SyncDefinition(table, queryId: name, schedule: schedule)
                }
                let engine = SyncEngine(
                    context: device.context, definitions: definitions, networkMonitor: ManualNetworkMonitor(),
                    logger: Self.quietLogger)
                await engine.start()
                engines.append(engine)
            }
            for engine in engines {
                while engine.status.lastSuccessfulPull == nil || engine.state != .idle {
                    try await Task.sleep(for: .milliseconds(10))
                }
            }
            let idle = try await Self.cpuMilliseconds(over: seconds)
            for engine in engines { await engine.stop() }
            let after = try await Self.cpuMilliseconds(over: seconds)
            for device in devices { try await device.context.close() }

            let perMinute = 60 / Double(seconds)
            let without = (before + after) / 2 * perMinute
            let with = idle * perMinute
            reporter.report(
                BenchResult(
                    suite: "engine", name: "CPU of this process with \(count) idle engines of 3 definitions",
                    unit: "ms/min", value: with, baseline: without, count: count, seconds: Double(3 * seconds),
                    note: "baseline: the same \(count) contexts without engines, before ("
                        + String(format: "%.2f", before * perMinute) + ") and after ("
                        + String(format: "%.2f", after * perMinute) + ")"))
            reporter.report(
                BenchResult(
                    suite: "engine", name: "CPU of one idle engine of 3 definitions ((with − without) ÷ engines)",
                    unit: "ms/min", value: (with - without) / Double(count), count: count,
                    seconds: Double(3 * seconds), target: "under 1 ms/min",
                    note: "server in a child process; interval 1 h, triggers app start, reconnect, foreground"))
        }
    }

    /// Engines in the benchmark log only errors.
    static let quietLogger: Logger = {
        var logger = Logger(label: "sync-bench.engine")
        logger.logLevel = .error
        return logger
    }()

    /// Trigger-to-request latency on loopback, `rounds` times: the network monitor reports the network back
    /// with one write queued, until the server has the POST; the baseline is a direct `context.push()`
    /// measured the same way.
    func triggerLatency(rounds: Int) async throws {
        let harness = try await ServerHarness.start(pageSize: 50, maxTop: 1000)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        guard let controls = harness.server.testControls else { throw BenchError.unexpected("test controls are off") }
        let context = try await SyncContext(
            store: try SQLiteStore(path: directory.file("latency.sqlite")), client: SyncClient(url: harness.baseURL))
        let table = try await context.table(BenchTodo.self, named: "latency")
        let network = ManualNetworkMonitor(.online)
        let engine = SyncEngine(
            context: context, definitions: [SyncDefinition(table, queryId: "latency")], networkMonitor: network,
            logger: Self.quietLogger)
        await engine.start()

        var engineLatencies = LatencyRecorder()
        var directLatencies = LatencyRecorder()
        let start = Stopwatch.now()
        for round in 0..<rounds {
            // Through the engine: offline, a write, then the network comes back.
            network.set(.offline)
            while engine.state != .offline { try await Task.sleep(for: .milliseconds(1)) }
            try await table.insert(BenchTodo.make(round, runTag: "e"))
            await controls.clearRequests()
            let triggered = Stopwatch.now()
            network.set(.online)
            try await Self.waitForPost(controls)
            engineLatencies.record(nanoseconds: Stopwatch.now() - triggered)
            while try await context.pendingOperationCount() > 0 || engine.state != .idle {
                try await Task.sleep(for: .milliseconds(1))
            }

            // Directly: the same write pushed by a call.
            network.set(.offline)
            while engine.state != .offline { try await Task.sleep(for: .milliseconds(1)) }
            try await table.insert(BenchTodo.make(round, runTag: "d"))
            await controls.clearRequests()
            let called = Stopwatch.now()
            let push = Task { try await context.push() }
            try await Self.waitForPost(controls)
            directLatencies.record(nanoseconds: Stopwatch.now() - called)
            _ = try await push.value
            network.set(.online)
            while engine.state != .idle { try await Task.sleep(for: .milliseconds(1)) }
        }
        let seconds = Double(Stopwatch.now() - start) / 1e9
        await engine.stop()
        try await context.close()
        try await harness.stop()
        let engineMedian = engineLatencies.p50 / 1_000
        let directMedian = directLatencies.p50 / 1_000
        reporter.report(
            BenchResult(
                suite: "engine", name: "network back → first request at the server (one queued write), median",
                unit: "ms", value: engineMedian, baseline: directMedian, count: rounds, seconds: seconds,
                p50: engineMedian, p99: engineLatencies.p99 / 1_000, latencyUnit: "ms",
                target: "under 50 ms", note: "baseline: context.push() called directly, same measurement"))
    }

    /// Spins until the server has recorded a POST.
    private static func waitForPost(_ controls: TestControls) async throws {
        while await !controls.requests().contains(where: { $0.method == "POST" }) { await Task.yield() }
    }

    /// User and system CPU time of this process over `seconds` of wall time, in milliseconds.
    private static func cpuMilliseconds(over seconds: Int) async throws -> Double {
        let before = processCPUMilliseconds()
        try await Task.sleep(for: .seconds(seconds))
        return processCPUMilliseconds() - before
    }

    private static func processCPUMilliseconds() -> Double {
        var usage = rusage()
        #if os(Linux)
            getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        func milliseconds(_ time: timeval) -> Double { Double(time.tv_sec) * 1_000 + Double(time.tv_usec) / 1_000 }
        return milliseconds(usage.ru_utime) + milliseconds(usage.ru_stime)
    }
}
