import Foundation
import SyncTables

/// The process the crash-safety tests kill with `SIGKILL`: it opens a file-backed context and pushes or
/// pulls until it is done or killed.
///
/// ```
/// sync-crash-child push <server-url> <database-path> <table>...
/// sync-crash-child pull <server-url> <database-path> <table> <query-id> <page-size>
/// ```
///
/// It prints `ready` once the context is open (so the test can time its kill from the start of the sync)
/// and `done` when the sync finished; it exits 0 on success and 1 with the error on standard error.
@main
struct CrashChild {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            try await run(arguments)
            FileHandle.standardOutput.write(Data("done\n".utf8))
        } catch {
            FileHandle.standardError.write(Data("sync-crash-child: \(error)\n".utf8))
            exit(1)
        }
    }

    private static func run(_ arguments: [String]) async throws {
        guard arguments.count >= 3, let url = URL(string: arguments[1]) else { throw Usage.invalid(arguments) }
        let store = try SQLiteStore(path: arguments[2])
        let context = try await SyncContext(store: store, client: SyncClient(url: url))
        let tables = arguments.dropFirst(3)
        switch arguments[0] {
        case "push" where !tables.isEmpty:
            for table in tables { _ = try await context.table(JSONObject.self, named: table) }
            announceReady()
            try await context.push()
        case "pull" where tables.count == 3:
            let values = Array(tables)
            guard let pageSize = Int(values[2]) else { throw Usage.invalid(arguments) }
            let table = try await context.table(JSONObject.self, named: values[0])
            announceReady()
            try await table.pull(queryId: values[1], options: PullOptions(pageSize: pageSize))
        default:
            throw Usage.invalid(arguments)
        }
        try await context.close()
    }

    /// Tells the test the sync is about to start, unbuffered so the test sees it at once.
    private static func announceReady() {
        FileHandle.standardOutput.write(Data("ready\n".utf8))
    }
}

enum Usage: Error, CustomStringConvertible {
    case invalid([String])

    var description: String {
        switch self {
        case .invalid(let arguments):
            "unexpected arguments \(arguments); usage: push <url> <db> <table>... | pull <url> <db> <table> <query-id> <page-size>"
        }
    }
}
