import Foundation
import Subprocess
import SystemPackage
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// The outcome of one run of the built `synctables` executable.
struct CLIRun: Sendable {
    let status: Int32
    let stdout: String
    let stderr: String

    /// stdout parsed as the one JSON object `--json` promises.
    var json: JSONObject {
        get throws {
            let value = try JSONValue(parsing: stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            return try #require(value.objectValue, "stdout is not a JSON object: \(stdout)")
        }
    }

    /// The lines written to stderr.
    var stderrLines: [String] {
        stderr.split(separator: "\n").map(String.init)
    }
}

/// Runs the `synctables` executable next to the test bundle (built by `swift build --build-tests`).
enum SynctablesExecutable {
    static var url: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("synctables")
    }

    /// The directory holding the built executables, for scripts that call `synctables` by name.
    static var directory: URL { url.deletingLastPathComponent() }

    /// Runs `synctables arguments…` to completion; stdout and stderr go to files so large output never blocks.
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> CLIRun {
        try #require(FileManager.default.isExecutableFile(atPath: url.path), "build synctables first")
        return try await runProcess(url, arguments: arguments, environment: environment)
    }

    /// Runs any executable to completion and captures its output (posix_spawn through swift-subprocess:
    /// Foundation's `Process.run()` crashed at random here, reading past a buffer while it listed open files).
    static func runProcess(
        _ executable: URL, arguments: [String], environment: [String: String], currentDirectory: URL? = nil
    ) async throws -> CLIRun {
        // The caller's settings for synctables must not leak into a run that does not set them.
        var changes: [Environment.Key: String?] = [:]
        for name in ["SYNCTABLES_KEY", "SYNCTABLES_SERVER", "SYNCTABLES_AUTH_TOKEN"] {
            if let key = Environment.Key(rawValue: name) { changes[key] = .some(nil) }
        }
        for (name, value) in environment {
            if let key = Environment.Key(rawValue: name) { changes[key] = value }
        }
        let result = try await Subprocess.run(
            .path(FilePath(executable.path)), arguments: Arguments(arguments),
            environment: .inherit.updating(changes), workingDirectory: currentDirectory.map { FilePath($0.path) },
            input: .none, output: .string(limit: 64 << 20), error: .string(limit: 64 << 20))
        let status: Int32 =
            switch result.terminationStatus {
            case .exited(let code): code
            case .signaled(let signal): 128 + signal
            }
        return CLIRun(status: status, stdout: result.standardOutput, stderr: result.standardError)
    }
}

extension JSONObject {
    /// The objects in the array under `key` (empty when there is none).
    func objects(_ key: String) -> [JSONObject] {
        self[key]?.arrayValue?.compactMap { $0.objectValue } ?? []
    }
}
