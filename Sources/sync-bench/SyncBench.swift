import ArgumentParser
import Foundation

/// `sync-bench`: measures SyncTables against raw baselines in the same run.
@main
struct SyncBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync-bench",
        abstract: "Benchmarks SyncTables next to raw SQLite / raw HTTP baselines measured in the same run.",
        subcommands: [Local.self, Server.self, Push.self, Pull.self, Engine.self, Serve.self]
    )
}

/// How results are printed.
enum OutputFormat: String, ExpressibleByArgument, Sendable {
    case text
    case json
}

/// Options every suite has.
struct CommonOptions: ParsableArguments {
    @Option(help: "text (default) or json (one JSON object per result on standard output).")
    var format: OutputFormat = .text

    var reporter: Reporter { Reporter(json: format == .json) }
}

extension SyncBench {
    /// The core-library suite.
    struct Local: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Inserts, lookups and filtered reads on a file-backed SQLiteStore vs raw libsqlite3.")

        @OptionGroup var common: CommonOptions
        @Option(
            help:
                "plain, encrypted (ratios to the plain store) or both (plain, then encrypted; needs --traits SQLCipher)."
        )
        var store: String = "plain"
        @Option(help: "Single durable inserts per synchronous setting.") var singleInserts = 2_000
        @Option(help: "Rows for the batched insert, lookups and filtered reads.") var rows = 100_000
        @Option(help: "Rows per insert(contentsOf:) transaction.") var batchSize = 10_000
        @Option(help: "Random lookups.") var lookups = 20_000
        @Option(help: "Repeats of the filtered query with limit 100.") var limitedQueries = 200
        @Option(help: "Repeats of the filtered query without limit.") var unlimitedQueries = 3
        @Option(help: "Rounds of the batched insert (each into fresh files); the median is reported.") var rounds = 3
        @Option(help: "Rounds of the batched insert run first and not counted.") var warmupRounds = 2

        func run() async throws {
            guard let kind = StoreKind(rawValue: store) else {
                throw ValidationError("--store must be plain, encrypted or both")
            }
            let sizes = LocalSuite.Sizes(
                singleInserts: singleInserts, rows: rows, batchSize: batchSize, lookups: lookups,
                limitedQueries: limitedQueries, unlimitedQueries: unlimitedQueries, rounds: rounds,
                warmupRounds: warmupRounds)
            try await LocalSuite(sizes: sizes, reporter: common.reporter, storeKind: kind).run()
        }
    }

    /// The reference-backend suite.
    struct Server: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "POST and filtered paged GET against an in-process sync server over 127.0.0.1.")

        @OptionGroup var common: CommonOptions
        @Option(help: "POST inserts.") var inserts = 2_000
        @Option(help: "Rows seeded for the GET.") var rows = 100_000
        @Option(help: "Filtered GET requests.") var gets = 1_000
        @Option(help: "GET requests per transport in the transport comparison.") var transportGets = 500
        @Option(help: "The server's page size and the $top of each GET.") var pageSize = 50

        func run() async throws {
            let sizes = ServerSuite.Sizes(
                inserts: inserts, rows: rows, gets: gets, transportGets: transportGets, pageSize: pageSize)
            try await ServerSuite(sizes: sizes, reporter: common.reporter).run()
        }
    }

    /// Push of queued operations.
    struct Push: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Pushes queued inserts to an in-process server vs a plain keep-alive POST loop.")

        @OptionGroup var common: CommonOptions
        @Option(help: "Queued operations to push.") var operations = 10_000

        func run() async throws {
            try await SyncSuites(reporter: common.reporter).push(operations: operations)
        }
    }

    /// The sync engine's idle cost and trigger latency.
    struct Engine: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "CPU of an idle engine with three definitions, and trigger-to-request latency on loopback.")

        @OptionGroup var common: CommonOptions
        @Option(help: "Seconds of each CPU measurement (without, then with the engine).") var idleSeconds = 60
        @Option(help: "Trigger-to-request rounds.") var rounds = 50

        func run() async throws {
            let suite = EngineSuite(reporter: common.reporter)
            try await suite.triggerLatency(rounds: rounds)
            try await suite.idleCPU(seconds: idleSeconds)
        }
    }

    /// Incremental pull.
    struct Pull: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Pulls rows incrementally from an in-process server vs raw GETs + raw SQLite inserts.")

        @OptionGroup var common: CommonOptions
        @Option(help: "Rows on the server.") var rows = 100_000
        @Option(parsing: .upToNextOption, help: "Client page sizes to measure.") var pageSizes: [Int] = [1000, 50]
        @Flag(help: "Run the server inside this process (its memory then counts in the RSS figures).")
        var inProcessServer = false

        func run() async throws {
            try await SyncSuites(reporter: common.reporter).pull(
                rows: rows, pageSizes: pageSizes, serverProcess: !inProcessServer)
        }
    }
}
