import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// A real `sync-server` on an ephemeral port and a directory for store files.
final class CLIHarness: Sendable {
    let server: SyncServer
    let url: URL
    let directory: URL

    private init(server: SyncServer, url: URL, directory: URL) {
        self.server = server
        self.url = url
        self.directory = directory
    }

    /// Starts a server (soft delete, test controls), runs `body`, then stops it and removes the files.
    static func with(authToken: String? = nil, _ body: (CLIHarness) async throws -> Void) async throws {
        let configuration = SyncServerConfiguration(
            storage: .inMemory, softDelete: .allTables, authToken: authToken
        ).withTestControls()
        let server = try await SyncServer(configuration: configuration)
        try await server.start()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "synctables-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let harness = CLIHarness(server: server, url: try #require(server.url), directory: directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await server.stopping { try await body(harness) }
    }

    var controls: TestControls {
        get throws { try #require(server.testControls) }
    }

    /// A path for a new store file.
    func newStorePath(_ name: String = "app") -> String {
        directory.appendingPathComponent("\(name)-\(UUID().uuidString).sqlite").path
    }

    /// Opens a context on a store file (as an app would), runs `body` and closes it.
    @discardableResult
    func withContext<Result>(
        _ path: String,
        authToken: String? = nil,
        pushHandler: (any PushHandler)? = nil,
        _ body: (SyncContext) async throws -> Result
    ) async throws -> Result {
        let store = try SQLiteStore(path: path)
        let headers = authToken.map { ["X-ZUMO-AUTH": $0] } ?? [:]
        let context = try await SyncContext(
            store: store, client: SyncClient(url: url, headers: headers),
            configuration: SyncContext.Configuration(pushHandler: pushHandler))
        do {
            let result = try await body(context)
            try await context.close()
            return result
        } catch {
            try? await context.close()
            throw error
        }
    }

    /// Runs `synctables <arguments> --store path`, adding `--server` for commands that talk to the server.
    func run(_ arguments: [String], store path: String, server: Bool = false, environment: [String: String] = [:])
        async throws -> CLIRun
    {
        var all = arguments + ["--store", path]
        if server { all += ["--server", url.absoluteString] }
        return try await SynctablesExecutable.run(all, environment: environment)
    }

    /// Seeds server rows directly (no client involved).
    func seed(_ table: String, _ items: [JSONObject]) async throws {
        _ = try await controls.seed(table: table, items: items)
    }
}

/// The rows of a store table, read with the library after the CLI exited.
func rows(_ table: String, in path: String) async throws -> [JSONObject] {
    let store = try SQLiteStore(path: path)
    let result = try await store.read(StoreQuery(table: table, ordering: [SortDescriptor("id")]))
    try await store.close()
    return result
}
