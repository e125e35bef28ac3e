import ArgumentParser
import Foundation
import Subprocess
import SystemPackage

/// A sync server in a child process (this executable's hidden `serve` command), so the client's memory
/// figures hold only the client: an in-process server's page building and store cache would count too.
///
/// The child starts through swift-subprocess (posix_spawn): Foundation's `Process.run()` crashed at random
/// on this toolchain, reading past a buffer while it listed the open files.
struct ServerProcess: Sendable {
    let baseURL: URL
    /// A second server on the same data that does not advertise keyset pulls.
    let baseURLWithoutKeysets: URL

    /// Starts `sync-bench serve`, seeding `rows` rows into `table` first, waits for its URL, runs `body` and
    /// stops the child (removing its store) however `body` ends.
    static func with<Result: Sendable>(
        pageSize: Int, maxTop: Int, table: String, rows: Int, runTag: String,
        _ body: (ServerProcess) async throws -> Result
    ) async throws -> Result {
        let arguments: Arguments = [
            "serve", "--page-size", "\(pageSize)", "--max-top", "\(maxTop)", "--table", table, "--rows", "\(rows)",
            "--run-tag", runTag,
        ]
        let outcome = try await Subprocess.run(
            .path("/proc/self/exe"), arguments: arguments, input: .none, output: .sequence,
            error: .fileDescriptor(.standardError, closeAfterSpawningProcess: false)
        ) { execution in
            // The child prints one line, "<URL> <URL without keysets> <directory>", once seeded and listening.
            var line = ""
            for try await text in execution.standardOutput.strings() {
                line = text
                break
            }
            let fields = line.split(separator: " ", maxSplits: 2).map(String.init)
            guard fields.count == 3, let url = URL(string: fields[0]), url.port != nil,
                let withoutKeysets = URL(string: fields[1]), withoutKeysets.port != nil
            else {
                try? execution.send(signal: .terminate)
                throw BenchError.unexpected("the server process did not report its URL")
            }
            // A terminated child cannot clean up: its directory goes here.
            defer {
                try? execution.send(signal: .terminate)
                try? FileManager.default.removeItem(atPath: fields[2])
            }
            return try await body(ServerProcess(baseURL: url, baseURLWithoutKeysets: withoutKeysets))
        }
        return outcome.closureResult
    }

    func url(_ pathAndQuery: String) throws -> URL {
        guard let url = URL(string: baseURL.absoluteString + pathAndQuery) else {
            throw BenchError.unexpected("bad URL \(pathAndQuery)")
        }
        return url
    }
}

extension SyncBench {
    /// The child side of ``ServerProcess``: seeds, prints its URLs and directory, serves until terminated.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Runs a seeded sync server for another sync-bench process (internal).",
            shouldDisplay: false)

        @Option var pageSize = 1000
        @Option var maxTop = 1000
        @Option var table = "pulltodo"
        @Option var rows = 0
        @Option var runTag = "l"

        func run() async throws {
            let harness = try await ServerHarness.start(pageSize: pageSize, maxTop: maxTop)
            if rows > 0 { try await harness.seed(table: table, count: rows, runTag: runTag) }
            let sibling = try await harness.startSiblingWithoutKeysets()
            // Unbuffered, so the parent reads the line at once.
            FileHandle.standardOutput.write(
                Data("\(harness.baseURL.absoluteString) \(sibling.url.absoluteString) \(harness.directory.path)\n".utf8)
            )
            while true { try await Task.sleep(for: .seconds(3600)) }
        }
    }
}
