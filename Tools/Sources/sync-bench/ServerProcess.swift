import ArgumentParser
import Foundation
import Subprocess
import SyncTablesServer
import SyncTablesServerTesting
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
    /// The child's process id, for its memory and CPU figures.
    var pid: Int32 = 0

    /// Starts `sync-bench serve`, seeding `rows` rows into `table` first, waits for its URL, runs `body` and
    /// stops the child (removing its store) however `body` ends.
    static func with<Result: Sendable>(
        pageSize: Int, maxTop: Int, table: String, rows: Int, runTag: String,
        _ body: (ServerProcess) async throws -> Result
    ) async throws -> Result {
        try await with(
            arguments: [
                "--page-size", "\(pageSize)", "--max-top", "\(maxTop)", "--table", table, "--rows", "\(rows)",
                "--run-tag", runTag,
            ], body)
    }

    /// Starts `sync-bench serve` with these arguments, waits for its URL, runs `body` and stops the child
    /// however `body` ends.
    static func with<Result: Sendable>(
        arguments: [String], _ body: (ServerProcess) async throws -> Result
    ) async throws -> Result {
        let outcome = try await Subprocess.run(
            .path("/proc/self/exe"), arguments: Arguments(["serve"] + arguments), input: .none, output: .sequence,
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
                if fields[2] != "-" { try? FileManager.default.removeItem(atPath: fields[2]) }
            }
            return try await body(
                ServerProcess(
                    baseURL: url, baseURLWithoutKeysets: withoutKeysets, pid: execution.processIdentifier.value))
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
        @Option(help: "Serve from this PostgreSQL database instead of a new SQLite file.") var database: String?
        @Option var databaseSchema = "public"
        @Option(help: "With --database: more tables to seed, as TABLE=ROWS (repeatable).") var seed: [String] = []
        @Option(help: "Change feeds served at once (and twice as many connections).") var maxChangeFeeds: Int?

        func run() async throws {
            if let database {
                try await servePostgres(database)
                return
            }
            let harness = try await ServerHarness.start(
                pageSize: pageSize, maxTop: maxTop, maxChangeFeeds: maxChangeFeeds)
            if rows > 0 { try await harness.seed(table: table, count: rows, runTag: runTag) }
            let sibling = try await harness.startSiblingWithoutKeysets()
            // Unbuffered, so the parent reads the line at once.
            FileHandle.standardOutput.write(
                Data("\(harness.baseURL.absoluteString) \(sibling.url.absoluteString) \(harness.directory.path)\n".utf8)
            )
            while true { try await Task.sleep(for: .seconds(3600)) }
        }

        /// One `sync-server` instance on a PostgreSQL database, after seeding `--table`/`--rows` and `--seed`.
        /// Prints its URL twice (it advertises keyset pulls) and `-` for the directory.
        private func servePostgres(_ url: String) async throws {
            var storage = try PostgresStorage(url: url)
            storage.schema = databaseSchema
            let server = try await SyncServer(
                configuration: SyncServerConfiguration(
                    storage: .postgres(storage), pageSize: pageSize, maxTop: maxTop
                ).withTestControls())
            try await server.start()
            guard let baseURL = server.url, let controls = server.testControls else {
                throw BenchError.unexpected("the server did not report its URL")
            }
            var tables = rows > 0 ? [(table, rows)] : []
            for text in seed {
                let parts = text.split(separator: "=")
                guard parts.count == 2, let count = Int(parts[1]) else {
                    throw BenchError.unexpected("--seed wants TABLE=ROWS, not \(text)")
                }
                tables.append((String(parts[0]), count))
            }
            for (table, count) in tables {
                for start in stride(from: 0, to: count, by: 5_000) {
                    let items = try (start..<min(count, start + 5_000)).map {
                        try BenchTodo.make($0, runTag: runTag).jsonObject()
                    }
                    try await controls.seed(table: table, items: items)
                }
            }
            FileHandle.standardOutput.write(Data("\(baseURL.absoluteString) \(baseURL.absoluteString) -\n".utf8))
            while true { try await Task.sleep(for: .seconds(3600)) }
        }
    }
}
