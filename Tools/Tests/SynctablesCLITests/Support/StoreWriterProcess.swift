import Foundation
import Testing

/// Runs `sync-store-writer` (Tests/SyncTablesStoreWriter), the second "app" of the multi-process tests.
enum StoreWriterProcess {
    static var url: URL {
        SynctablesExecutable.directory.appendingPathComponent("sync-store-writer")
    }

    /// Inserts `count` items `<prefix>-<n>` into `table` of the store at `path`, updating earlier ones
    /// between them, with pauses drawn from `seed`; returns when the process exits.
    static func write(path: String, table: String, prefix: String, count: Int, seed: UInt64) async throws -> CLIRun {
        try #require(FileManager.default.isExecutableFile(atPath: url.path), "build sync-store-writer first")
        return try await SynctablesExecutable.runProcess(
            url, arguments: ["write", path, table, prefix, String(count), String(seed)], environment: [:])
    }

    /// Inserts `count` items `<prefix>-<n>` into `table` of the store at `path` and discards each one's
    /// operation (one history entry each); returns when the process exits.
    static func discard(path: String, table: String, prefix: String, count: Int) async throws -> CLIRun {
        try #require(FileManager.default.isExecutableFile(atPath: url.path), "build sync-store-writer first")
        return try await SynctablesExecutable.runProcess(
            url, arguments: ["discard", path, table, prefix, String(count)], environment: [:])
    }
}
