import ArgumentParser
import Foundation
import Logging
@_spi(SyncTablesTools) import SyncTables
import SyncTablesConfiguration
@_spi(SyncTablesTools) import SyncTablesCore

/// `synctables sync`: one sync engine cycle as a configuration file describes it, or with `--watch` the engine
/// running until SIGINT or SIGTERM.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Push the queue and pull the tables a configuration file lists: once, or with --watch until stopped.",
        discussion: """
            The configuration file (YAML or JSON) lists the tables ("definitions") and the engine's policies; \
            see the DocC article "The sync engine". A bad file is refused before anything runs, with the line \
            and key (exit 64). One cycle exits 0 when it completed, 2 when some operations failed (see \
            `synctables dead list` and `synctables errors list`), 3 when the server could not be reached, 4 on \
            HTTP 401. With --watch the engine syncs as the schedules say and prints one line per cycle, and \
            one whenever its connection to the server's change feed changes (live, retrying, ...): a change \
            on the server is pulled within a moment. SIGINT or SIGTERM stops it between two operations \
            (nothing is lost) and it exits 0.
            """
    )

    @OptionGroup var options: StoreOptions
    @OptionGroup var server: ServerOptions

    @Option(help: ArgumentHelp("The configuration file (YAML or JSON).", valueName: "path"))
    var config: String

    @Flag(help: "Keep syncing as the configuration says until SIGINT or SIGTERM, one line per cycle.")
    var watch = false

    func run() async throws {
        try await reportingFailures(options) {
            let file: SyncConfiguration
            do {
                file = try SyncConfiguration.load(contentsOf: config)
            } catch {
                throw CommandFailure(.usage, String(describing: error))
            }
            let client = try ServerConnection.client(server)
            let output = Output(options)
            try await StoreSession.with(options, client: client, configuration: file.contextConfiguration()) {
                session in
                var logger = Logger(label: "synctables.sync")
                logger.logLevel = .error
                let engine = try await file.makeEngine(context: session.context, logger: logger)
                if watch {
                    await Self.watch(engine, output: output)
                } else {
                    try await Self.once(engine, output: output)
                }
            }
        }
    }

    private static func once(_ engine: SyncEngine, output: Output) async throws {
        let report = await engine.syncNow(reason: "synctables sync")
        output.emit(json(report), text: report.description)
        if engine.state == .blockedAuth {
            throw CommandFailure(
                .authentication, "the server refused the credentials (HTTP 401); check --auth-token",
                reportedAsJSON: output.json)
        }
        switch report.outcome {
        case .completed where report.failedOperations == 0 && report.failedPulls.isEmpty:
            return
        case .completed:
            throw CommandFailure(
                .pushErrors,
                "\(report.failedOperations) operation(s) and \(report.failedPulls.count) pull(s) failed; "
                    + "see `synctables dead list` and `synctables errors list`",
                reportedAsJSON: output.json)
        case .failed(let reason):
            throw CommandFailure(.network, "the cycle failed: \(reason); nothing was lost", reportedAsJSON: output.json)
        case .skipped(let state):
            throw CommandFailure(.failure, "the cycle did not run: the engine is \(state)", reportedAsJSON: output.json)
        case .cancelled:
            throw CommandFailure(.failure, "the cycle was cancelled", reportedAsJSON: output.json)
        }
    }

    /// Runs the engine until SIGINT or SIGTERM, one line per cycle and one per change of the change feed's
    /// status (the engine pulls a table the server announces a change of within a moment).
    private static func watch(_ engine: SyncEngine, output: Output) async {
        let signals = SignalWaiter([SIGINT, SIGTERM])
        let reports = engine.cycleReports
        let statuses = engine.statuses
        let printer = Task {
            for await report in reports {
                output.emit(json(report), text: "\(Date().formatted(.iso8601)) \(report)")
            }
        }
        let feedPrinter = Task {
            var shown = ChangeFeedStatus.off
            for await status in statuses where status.changeFeed != shown {
                shown = status.changeFeed
                output.emit(
                    ["changeFeed": .string(shown.description)],
                    text: "\(Date().formatted(.iso8601)) change feed: \(shown)")
            }
        }
        await engine.start()
        let signal = await signals.next()
        await engine.stop()
        // A line being printed finishes before the last line, so "stopped by" always ends the output.
        for task in [printer, feedPrinter] {
            task.cancel()
            await task.value
        }
        if !output.json && !output.quiet {
            Output.writeLine("stopped by \(signal == SIGINT ? "SIGINT" : "SIGTERM")", to: .standardOutput)
        }
    }

    static func json(_ report: SyncCycleReport) -> JSONObject {
        let outcome: String
        var reason: String?
        switch report.outcome {
        case .completed: outcome = "completed"
        case .failed(let why):
            outcome = "failed"
            reason = why
        case .skipped(let state):
            outcome = "skipped"
            reason = state.description
        case .cancelled: outcome = "cancelled"
        }
        return [
            "reason": .string(report.reason),
            "outcome": .string(outcome),
            "detail": .optional(reason),
            "pushedOperations": .count(report.pushedOperations),
            "failedOperations": .count(report.failedOperations),
            "pulls": .array(
                report.pulls.map { .object(["table": .string($0.table), "received": .count($0.summary.received)]) }),
            "failedPulls": .array(
                report.failedPulls.map { .object(["table": .string($0.table), "error": .string($0.error)]) }),
        ]
    }
}

/// Waits for the first of some signals, which it takes over from their default action (ending the process).
///
/// `@unchecked Sendable` is sound because `sources` (not `Sendable`) is set once, in `init`, and only kept
/// alive; what the signals change is behind `state`'s lock.
final class SignalWaiter: @unchecked Sendable {
    private struct State {
        var received: Int32?
        var waiter: CheckedContinuation<Int32, Never>?
    }

    private let sources: [any DispatchSourceSignal]
    private let state = LockedState(State())

    init(_ signals: [Int32]) {
        let queue = DispatchQueue(label: "synctables.signals")
        var sources: [any DispatchSourceSignal] = []
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            sources.append(source)
        }
        self.sources = sources
        for (number, source) in zip(signals, sources) {
            source.setEventHandler { [weak self] in self?.deliver(number) }
            source.resume()
        }
    }

    private func deliver(_ number: Int32) {
        let waiter: CheckedContinuation<Int32, Never>? = state.withLock { state in
            guard state.received == nil else { return nil }
            state.received = number
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: number)
    }

    /// The first signal received (at once if one already was).
    func next() async -> Int32 {
        await withCheckedContinuation { continuation in
            let ready: Int32? = state.withLock { state in
                if let received = state.received { return received }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
