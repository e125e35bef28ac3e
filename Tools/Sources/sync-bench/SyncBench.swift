import ArgumentParser
import Foundation
import SlowLink
import SyncTablesServer

/// `sync-bench`: measures SyncTables against raw baselines in the same run.
@main
struct SyncBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync-bench",
        abstract: "Benchmarks SyncTables next to raw SQLite / raw HTTP baselines measured in the same run.",
        subcommands: [
            Local.self, Server.self, Identity.self, Push.self, Merge.self, Pull.self, Engine.self, Feed.self,
            Serve.self,
        ]
    )
}

/// How results are printed.
enum OutputFormat: String, ExpressibleByArgument, Sendable {
    case text
    case json
}

/// The simulated link of the latency suites (`--rtt 50ms --bandwidth 20mbit`).
struct LinkOptions: ParsableArguments {
    @Option(help: "Round-trip time of a simulated link (e.g. 50ms) between client and server; off by default.")
    var rtt: String?
    @Option(help: "With --rtt: the link's capacity in each direction (e.g. 20mbit).") var bandwidth: String?

    /// The link, or `nil` without `--rtt`.
    func configuration() throws -> SlowLinkConfiguration? {
        guard let rtt else {
            if bandwidth != nil { throw ValidationError("--bandwidth needs --rtt") }
            return nil
        }
        guard let roundTrip = SlowLinkConfiguration.duration(parsing: rtt) else {
            throw ValidationError("--rtt takes a duration such as 50ms")
        }
        var bitsPerSecond: Int?
        if let bandwidth {
            guard let rate = SlowLinkConfiguration.bitsPerSecond(parsing: bandwidth) else {
                throw ValidationError("--bandwidth takes a rate such as 20mbit")
            }
            bitsPerSecond = rate
        }
        return SlowLinkConfiguration(roundTrip: roundTrip, bitsPerSecond: bitsPerSecond)
    }
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
            abstract: "POST and filtered paged GET against a sync server over 127.0.0.1 (SQLite, or PostgreSQL).")

        @OptionGroup var common: CommonOptions
        @Option(help: "POST inserts.") var inserts = 2_000
        @Option(help: "Rows seeded for the GET.") var rows = 100_000
        @Option(help: "Filtered GET requests.") var gets = 1_000
        @Option(help: "GET requests per transport in the transport comparison.") var transportGets = 500
        @Option(help: "The server's page size and the $top of each GET.") var pageSize = 50
        @Option(help: "Rows of the table read from both ends, keyset against OFFSET (0: skip).")
        var pagingRows = 1_000_000
        @Option(help: "Rounds over the first and last pages of that table.") var pagingRounds = 5
        @Option(
            help: ArgumentHelp(
                "Serve from this PostgreSQL database (postgres://user@host:port/db) instead of SQLite.",
                discussion: "Runs --instances server processes on it, loaded by --clients concurrent clients, "
                    + "beside a raw PostgresNIO loop sending the same statements. Tables go in a new schema, "
                    + "dropped at the end."))
        var database: String?
        @Option(help: "With --database: the instance counts to measure, comma-separated.") var instances = "1,2,3"
        @Option(help: "With --database: concurrent clients (and raw PostgresNIO workers).") var clients = 8

        func run() async throws {
            if let database {
                let counts = instances.split(separator: ",").compactMap { Int($0) }
                guard !counts.isEmpty, counts.allSatisfy({ $0 >= 1 }) else {
                    throw ValidationError("--instances takes counts such as 1,2,3")
                }
                let sizes = PostgresServerSuite.Sizes(
                    inserts: inserts, rows: rows, gets: gets, pageSize: pageSize, pagingRows: pagingRows,
                    pagingRounds: pagingRounds, clients: clients, instances: counts)
                let storage = try PostgresStorage(url: database)
                try await PostgresServerSuite(database: storage, sizes: sizes, reporter: common.reporter).run()
                return
            }
            let sizes = ServerSuite.Sizes(
                inserts: inserts, rows: rows, gets: gets, transportGets: transportGets, pageSize: pageSize,
                pagingRows: pagingRows, pagingRounds: pagingRounds)
            try await ServerSuite(sizes: sizes, reporter: common.reporter).run()
        }
    }

    /// What identity and row scoping cost the server.
    struct Identity: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "POST and filtered GET with JWT verification and owner scoping vs static token, dev mode.")

        @OptionGroup var common: CommonOptions
        @Option(help: "Rows seeded in each server's table.") var rows = 20_000
        @Option(help: "Requests of each kind per round and server.") var requests = 1_000
        @Option(help: "Measured rounds (after one warm-up round).") var rounds = 5
        @Option(help: "The page size and $top of each GET.") var pageSize = 50
        @Option(help: "Serve from this PostgreSQL database (postgres://user@host:port/db) instead of SQLite.")
        var database: String?

        func run() async throws {
            let sizes = IdentitySuite.Sizes(rows: rows, requests: requests, rounds: rounds, pageSize: pageSize)
            let storage = try database.map { try PostgresStorage(url: $0) }
            try await IdentitySuite(sizes: sizes, reporter: common.reporter, database: storage).run()
        }
    }

    /// Push of queued operations.
    struct Push: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Pushes queued inserts to an in-process server vs a plain keep-alive POST loop.")

        @OptionGroup var common: CommonOptions
        @Option(help: "Queued operations to push.") var operations = 10_000
        @OptionGroup var link: LinkOptions
        @Option(help: "With --rtt: operations of the one-request-per-operation baseline (its rate is compared).")
        var baselineOperations = 200
        @Option(help: "With --rtt: operations pushed with concurrent requests.") var concurrentOperations = 2_000
        @Option(help: "With --rtt: operations per batch (also the server's limit).") var batchSize = 100
        @Option(help: "With --rtt: requests at once for the concurrent push.") var concurrency = 8

        func run() async throws {
            guard let configuration = try link.configuration() else {
                try await SyncSuites(reporter: common.reporter).push(operations: operations)
                return
            }
            let sizes = LatencySuite.PushSizes(
                operations: operations, baselineOperations: baselineOperations,
                concurrentOperations: concurrentOperations, batchSize: batchSize, concurrency: concurrency)
            try await LatencySuite(reporter: common.reporter, link: configuration).push(sizes)
        }
    }

    /// What keeping ancestors for merges costs a push.
    struct Merge: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Pushes queued updates that keep their ancestors vs the same updates without them.")

        @OptionGroup var common: CommonOptions
        @Option(help: "Queued updates per push.") var updates = 10_000
        @Option(help: "Alternating rounds (each pushes once with and once without ancestors).") var rounds = 3

        func run() async throws {
            try await MergeSuite(reporter: common.reporter, updates: updates, rounds: rounds).run()
        }
    }

    /// The change feed's latency and its cost to the server.
    struct Feed: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Change feed: push-to-other-store latency vs an incremental pull; idle feeds' and busy feeds' cost.")

        @OptionGroup var common: CommonOptions
        @Option(help: "Changes whose latency is measured (and incremental pulls of the baseline).") var changes = 200
        @Option(help: "Idle feeds whose memory and CPU are measured.") var idleFeeds = 1_000
        @Option(help: "Seconds of each idle CPU measurement (without, then with the feeds).") var idleSeconds = 30
        @Option(help: "Feeds reading every change while the writes run.") var busyFeeds = 200
        @Option(help: "Writes of each throughput round (without, with, without the feeds).") var writes = 2_000

        func run() async throws {
            try await FeedSuite(
                reporter: common.reporter, changes: changes, idleFeeds: idleFeeds, idleSeconds: idleSeconds,
                busyFeeds: busyFeeds, writes: writes
            ).run()
        }
    }

    /// The sync engine's idle cost and trigger latency.
    struct Engine: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "CPU of idle engines with three definitions, and trigger-to-request latency on loopback.")

        @OptionGroup var common: CommonOptions
        @Option(help: "Seconds of each CPU measurement (without, with, then again without the engines).")
        var idleSeconds = 60
        @Option(help: "Idle engines (each with its own context) whose CPU is measured together.")
        var idleEngines = 50
        @Option(help: "Trigger-to-request rounds.") var rounds = 50

        func run() async throws {
            let suite = EngineSuite(reporter: common.reporter)
            try await suite.triggerLatency(rounds: rounds)
            try await suite.idleCPU(seconds: idleSeconds, engines: idleEngines)
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
        @OptionGroup var link: LinkOptions

        func run() async throws {
            if let configuration = try link.configuration() {
                let suite = LatencySuite(reporter: common.reporter, link: configuration)
                for pageSize in pageSizes { try await suite.pull(rows: rows, pageSize: pageSize) }
                return
            }
            try await SyncSuites(reporter: common.reporter).pull(
                rows: rows, pageSizes: pageSizes, serverProcess: !inProcessServer)
        }
    }
}
