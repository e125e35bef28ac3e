import Foundation
import SyncTables
import Testing

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

    /// Runs any executable to completion and captures its output.
    static func runProcess(
        _ executable: URL, arguments: [String], environment: [String: String], currentDirectory: URL? = nil
    ) async throws -> CLIRun {
        let directory = FileManager.default.temporaryDirectory
        let outURL = directory.appendingPathComponent("synctables-out-\(UUID().uuidString)")
        let errURL = directory.appendingPathComponent("synctables-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        var merged = ProcessInfo.processInfo.environment
        for name in ["SYNCTABLES_KEY", "SYNCTABLES_SERVER", "SYNCTABLES_AUTH_TOKEN"] { merged[name] = nil }
        merged.merge(environment) { _, new in new }
        process.environment = merged
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        return CLIRun(
            status: process.terminationStatus,
            stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
    }
}

extension JSONObject {
    /// The objects in the array under `key` (empty when there is none).
    func objects(_ key: String) -> [JSONObject] {
        self[key]?.arrayValue?.compactMap { $0.objectValue } ?? []
    }
}
