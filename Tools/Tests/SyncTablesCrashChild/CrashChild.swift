import Foundation
@_spi(SyncTablesTools) import SyncTables

/// The process the crash-safety tests kill with `SIGKILL`: it opens a file-backed context and pushes or
/// pulls until it is done or killed.
///
/// ```
/// sync-crash-child push <server-url> <database-path> <table>...
/// sync-crash-child pull <server-url> <database-path> <table> <query-id> <page-size>
/// sync-crash-child engine <server-url> <database-path> <table>
/// sync-crash-child wipe <server-url> <database-path>
/// ```
///
/// `engine` starts a ``SyncEngine`` syncing the table and runs until it is killed. `wipe` wipes the store
/// (``SyncContext/wipe(waitingForSync:)``), writing `wiping` on standard output just before.
///
/// It exits 0 when the sync finished and 1, with the error on standard error, when it failed. The
/// environment variable `SYNCTABLES_PUSH_LEASE_SECONDS` sets its push lease's duration (tests that kill it
/// and let another pusher take over); `SYNCTABLES_PUSH_BATCH_SIZE` and `SYNCTABLES_PUSH_CONCURRENCY` its push's
/// ``PushOptions``.
@main
struct CrashChild {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            try await run(arguments)
        } catch {
            FileHandle.standardError.write(Data("sync-crash-child: \(error)\n".utf8))
            exit(1)
        }
    }

    private static func run(_ arguments: [String]) async throws {
        guard arguments.count >= 3, let url = URL(string: arguments[1]) else { throw Usage.invalid(arguments) }
        let store = try SQLiteStore(path: arguments[2])
        let leaseSeconds = ProcessInfo.processInfo.environment["SYNCTABLES_PUSH_LEASE_SECONDS"].flatMap(Int.init)
        let context = try await SyncContext(
            store: store, client: SyncClient(url: url),
            configuration: SyncContext.Configuration(pushLeaseDuration: .seconds(leaseSeconds ?? 60)))
        let tables = arguments.dropFirst(3)
        switch arguments[0] {
        case "wipe" where tables.isEmpty:
            FileHandle.standardOutput.write(Data("wiping\n".utf8))
            try await context.wipe()
        case "push" where !tables.isEmpty:
            for table in tables { _ = try await context.table(JSONObject.self, named: table) }
            let environment = ProcessInfo.processInfo.environment
            let batchSize = environment["SYNCTABLES_PUSH_BATCH_SIZE"].flatMap(Int.init) ?? 1
            let concurrency = environment["SYNCTABLES_PUSH_CONCURRENCY"].flatMap(Int.init) ?? 1
            try await context.push(options: PushOptions(batchSize: batchSize, maxConcurrentRequests: concurrency))
        case "pull" where tables.count == 3:
            let values = Array(tables)
            guard let pageSize = Int(values[2]) else { throw Usage.invalid(arguments) }
            let table = try await context.table(JSONObject.self, named: values[0])
            try await table.pull(queryId: values[1], options: PullOptions(pageSize: pageSize))
        case "engine" where tables.count == 1:
            let table = try await context.table(JSONObject.self, named: tables[tables.startIndex])
            let engine = SyncEngine(context: context, definitions: [SyncDefinition(table)])
            await engine.start()
            while true { try await Task.sleep(for: .seconds(60)) }
        default:
            throw Usage.invalid(arguments)
        }
        try await context.close()
    }
}

enum Usage: Error, CustomStringConvertible {
    case invalid([String])

    var description: String {
        switch self {
        case .invalid(let arguments):
            "unexpected arguments \(arguments); usage: push <url> <db> <table>... | pull <url> <db> <table> <query-id> <page-size> | engine <url> <db> <table> | wipe <url> <db>"
        }
    }
}
