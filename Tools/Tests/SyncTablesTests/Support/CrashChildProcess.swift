import Foundation
import Subprocess
import SystemPackage
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// The `sync-crash-child` executable (built next to the test bundle by `swift build --build-tests`), run
/// and killed with `SIGKILL` the way an app dies when the system reclaims it.
struct CrashChildProcess {
    /// When the kill is timed from.
    enum KillPoint: CustomStringConvertible {
        /// This long after the process was spawned: during launch or while the store opens.
        case afterSpawn(Duration)
        /// This long after the server received the child's n-th request: tied to the sync's progress,
        /// so the kills spread over the whole sync however fast or loaded the machine is.
        case afterRequests(Int, Duration)
        /// This long after the child wrote `marker` to its output: tied to the child's own progress (a
        /// wipe announces itself just before its transaction).
        case afterOutput(String, Duration)

        /// The kill point of one run: every fourth very early (launch, store opening), the others after a
        /// random number of requests plus up to 15 ms, so they land while a request is on the wire or
        /// being answered, while its outcome commits, or between requests.
        static func random(run: Int, requestsUpTo maximum: Int, using random: inout SeededGenerator) -> KillPoint {
            if run % 4 == 0 {
                return .afterSpawn(.milliseconds(Int.random(in: 0...60, using: &random)))
            }
            return .afterRequests(
                Int.random(in: 1...maximum, using: &random), .microseconds(Int.random(in: 0...15_000, using: &random)))
        }

        var description: String {
            switch self {
            case .afterSpawn(let delay): "spawn+\(delay.milliseconds)ms"
            case .afterRequests(let count, let delay): "request\(count)+\(delay.milliseconds)ms"
            case .afterOutput(let marker, let delay): "\(marker)+\(delay.milliseconds)ms"
            }
        }
    }

    /// How a run ended.
    enum Outcome: Equatable {
        /// `SIGKILL` arrived while the child was still running.
        case killed
        /// The child finished its sync before the kill.
        case finished
    }

    private static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("sync-crash-child")
    }

    let arguments: [String]
    let logDirectory: URL
    /// Variables set for the child on top of this process's environment.
    var environment: [String: String] = [:]

    /// Runs the child and kills it at `point`; throws when it fails on its own (it never should).
    ///
    /// `requestsReceived` counts the server's requests since the run started.
    func run(killingAt point: KillPoint, requestsReceived: @escaping @Sendable () async throws -> Int) async throws
        -> Outcome
    {
        let (status, log) = try await spawn { execution, log in
            switch point {
            case .afterSpawn(let delay):
                try await Task.sleep(for: delay)
            case .afterRequests(let count, let delay):
                let pid = execution.processIdentifier.value
                while Self.isRunning(pid), try await requestsReceived() < count {
                    try await Task.sleep(for: .milliseconds(1))
                }
                if delay > .zero { try await Task.sleep(for: delay) }
            case .afterOutput(let marker, let delay):
                let pid = execution.processIdentifier.value
                while Self.isRunning(pid), !((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains(marker) {
                    try await Task.sleep(for: .milliseconds(1))
                }
                if delay > .zero { try await Task.sleep(for: delay) }
            }
            try? execution.send(signal: .kill)
        }
        if status == .signaled(SIGKILL) { return .killed }
        try Self.requireSuccess(status, log: log)
        return .finished
    }

    /// Runs the child until it finishes on its own; throws when it fails.
    func runToCompletion() async throws {
        let (status, log) = try await spawn { _, _ in }
        try Self.requireSuccess(status, log: log)
    }

    /// Runs the child (posix_spawn through swift-subprocess: Foundation's `Process.run()` crashed at random
    /// here) with its output in a log file, calls `body` with the log file while it runs, then waits for it
    /// to end: `body` must end it or let it finish.
    private func spawn(
        _ body:
            @escaping @Sendable (Execution<NoInput, FileDescriptorOutput, FileDescriptorOutput>, URL) async throws ->
            Void
    )
        async throws -> (TerminationStatus, URL)
    {
        let binary = Self.executable
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build sync-crash-child first")
        let log = logDirectory.appendingPathComponent("child-\(UUID().uuidString).log")
        let output = try FileDescriptor.open(
            FilePath(log.path), .writeOnly, options: [.create, .append], permissions: .ownerReadWrite)
        let errors = try FileDescriptor.open(FilePath(log.path), .writeOnly, options: [.append])
        let result = try await Subprocess.run(
            .path(FilePath(binary.path)), arguments: Arguments(arguments),
            environment: .inherit.updating(
                Dictionary(
                    uniqueKeysWithValues: environment.compactMap { name, value in
                        Environment.Key(rawValue: name).map { ($0, value as String?) }
                    })), input: .none,
            output: .fileDescriptor(output, closeAfterSpawningProcess: true),
            error: .fileDescriptor(errors, closeAfterSpawningProcess: true)
        ) { execution in
            // However the body ends, the child is not left running past a minute.
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await Task.sleep(for: .seconds(60))
                    try? execution.send(signal: .kill)
                    throw CrashChildError.didNotExit
                }
                try await body(execution, log)
                group.cancelAll()
            }
        }
        return (result.terminationStatus, log)
    }

    /// Whether the process is alive: not gone, and not a zombie waiting to be reaped.
    private static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(after: end)...].trimmingCharacters(in: .whitespaces).first != "Z"
    }

    private static func requireSuccess(_ status: TerminationStatus, log: URL) throws {
        guard status == .exited(0) else {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw CrashChildError.failed(status: status.description, output: text)
        }
    }
}

enum CrashChildError: Error {
    case didNotExit
    case failed(status: String, output: String)
}

extension Duration {
    /// The duration in whole milliseconds, for log lines.
    var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
