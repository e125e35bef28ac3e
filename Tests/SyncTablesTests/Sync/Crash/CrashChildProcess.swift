import Foundation
import SyncTables
import Testing

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

    /// Runs the child and kills it at `point`; throws when it fails on its own (it never should).
    ///
    /// `requestsReceived` counts the server's requests since the run started.
    func run(killingAt point: KillPoint, requestsReceived: () async throws -> Int) async throws -> Outcome {
        let (process, log) = try start()
        switch point {
        case .afterSpawn(let delay):
            try await Task.sleep(for: delay)
        case .afterRequests(let count, let delay):
            while process.isRunning, try await requestsReceived() < count {
                try await Task.sleep(for: .milliseconds(1))
            }
            if delay > .zero { try await Task.sleep(for: delay) }
        }
        kill(process.processIdentifier, SIGKILL)
        try await Self.waitForExit(process)
        if process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL {
            return .killed
        }
        try Self.requireSuccess(process, log: log)
        return .finished
    }

    /// Runs the child until it finishes on its own; throws when it fails.
    func runToCompletion() async throws {
        let (process, log) = try start()
        try await Self.waitForExit(process)
        try Self.requireSuccess(process, log: log)
    }

    private func start() throws -> (Process, URL) {
        let binary = Self.executable
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build sync-crash-child first")
        let log = logDirectory.appendingPathComponent("child-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let output = try FileHandle(forWritingTo: log)
        defer { try? output.close() }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = output
        try process.run()
        return (process, log)
    }

    private static func waitForExit(_ process: Process) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                kill(process.processIdentifier, SIGKILL)
                throw CrashChildError.didNotExit
            }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    private static func requireSuccess(_ process: Process, log: URL) throws {
        guard process.terminationReason == .exit && process.terminationStatus == 0 else {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw CrashChildError.failed(status: process.terminationStatus, output: text)
        }
    }
}

enum CrashChildError: Error {
    case didNotExit
    case failed(status: Int32, output: String)
}

extension Duration {
    /// The duration in whole milliseconds, for log lines.
    var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
