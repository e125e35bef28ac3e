import ArgumentParser
import Foundation

/// A sync server in a child process (this executable's hidden `serve` command), so the client's memory
/// figures hold only the client: an in-process server's page building and store cache would count too.
final class ServerProcess {
    let baseURL: URL
    private let process: Process
    /// The child's temporary directory, removed here: a terminated child cannot clean up.
    private let directory: String

    /// Starts `sync-bench serve`, seeding `rows` rows into `table` first, and waits for its URL.
    static func start(pageSize: Int, maxTop: Int, table: String, rows: Int, runTag: String) throws -> ServerProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        process.arguments = [
            "serve", "--page-size", "\(pageSize)", "--max-top", "\(maxTop)", "--table", table, "--rows", "\(rows)",
            "--run-tag", runTag,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // The child prints one line, "<URL> <directory>", once seeded and listening.
        var line: [UInt8] = []
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            guard let first = byte.first else { break }
            if first == UInt8(ascii: "\n") { break }
            line.append(first)
        }
        let fields = String(decoding: line, as: UTF8.self).split(separator: " ", maxSplits: 1).map(String.init)
        guard fields.count == 2, let url = URL(string: fields[0]), url.port != nil else {
            process.terminate()
            throw BenchError.unexpected("the server process did not report its URL")
        }
        return ServerProcess(baseURL: url, process: process, directory: fields[1])
    }

    private init(baseURL: URL, process: Process, directory: String) {
        self.baseURL = baseURL
        self.process = process
        self.directory = directory
    }

    func url(_ pathAndQuery: String) throws -> URL {
        guard let url = URL(string: baseURL.absoluteString + pathAndQuery) else {
            throw BenchError.unexpected("bad URL \(pathAndQuery)")
        }
        return url
    }

    /// Stops the child and removes its store.
    func stop() {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

extension SyncBench {
    /// The child side of ``ServerProcess``: seeds, prints its URL and directory, serves until terminated.
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
            // Unbuffered, so the parent reads the line at once.
            FileHandle.standardOutput.write(Data("\(harness.baseURL.absoluteString) \(harness.directory.path)\n".utf8))
            while true { try await Task.sleep(for: .seconds(3600)) }
        }
    }
}
