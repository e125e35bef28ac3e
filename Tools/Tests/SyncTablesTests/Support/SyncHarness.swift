import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// The item the end-to-end tests sync.
struct TodoItem: SyncItem, Equatable {
    var id: String
    var text: String
    var complete: Bool = false
    var version: String?
    var createdAt: Date?
    var updatedAt: Date?
}

/// A real `sync-server` on an ephemeral 127.0.0.1 port (test controls on) and devices that sync with it,
/// each a `SyncContext` on its own SQLite file.
final class SyncHarness: Sendable {
    let server: SyncServer
    let url: URL
    let directory: TemporaryDirectory
    /// The token devices send, when the server verifies tokens (declared tables).
    let bearerToken: String?

    var controls: TestControls {
        get throws { try #require(server.testControls) }
    }

    private init(server: SyncServer, url: URL, directory: TemporaryDirectory, bearerToken: String? = nil) {
        self.server = server
        self.url = url
        self.directory = directory
        self.bearerToken = bearerToken
    }

    /// Starts a server, runs `body`, and stops the server whatever happens.
    static func with(
        softDelete: SoftDeletePolicy = .allTables,
        pageSize: Int = 50,
        authToken: String? = nil,
        advertisesKeysetPull: Bool = true,
        maxBatchOperations: Int = 100,
        declaredTables: String? = nil,
        idempotencyKeyRetention: Duration = SyncServerConfiguration().idempotencyKeyRetention,
        changeHeartbeat: Duration = SyncServerConfiguration().changeHeartbeat,
        _ body: (SyncHarness) async throws -> Void
    ) async throws {
        var configuration = SyncServerConfiguration(
            storage: .inMemory, pageSize: pageSize, softDelete: softDelete, authToken: authToken,
            maxBatchOperations: maxBatchOperations, advertisesKeysetPull: advertisesKeysetPull
        ).withTestControls()
        let directory = try TemporaryDirectory()
        var bearerToken: String?
        if let declaredTables {
            // Declared tables need a verified caller: a development key signs the devices' token.
            let keyPath = directory.newDatabasePath() + ".jwks"
            bearerToken = try await DevelopmentKey.loadOrCreate(at: keyPath).token(subject: "tester")
            configuration.declaredTables = try TableDeclarations(yaml: declaredTables)
            configuration.authentication = .jwt(JWTVerification(keys: .file(path: keyPath)))
        }
        configuration.idempotencyKeyRetention = idempotencyKeyRetention
        configuration.changeHeartbeat = changeHeartbeat
        let server = try await SyncServer(configuration: configuration)
        try await server.start()
        let harness = SyncHarness(
            server: server, url: try #require(server.url), directory: directory, bearerToken: bearerToken)
        try await server.stopping { try await body(harness) }
    }

    /// The headers a device sends: the bearer token, when the server verifies tokens.
    var authorization: [String: String] {
        bearerToken.map { ["Authorization": "Bearer \($0)"] } ?? [:]
    }

    /// A device: a context on a new SQLite file, talking to this server.
    func device(
        path: String? = nil,
        conflictPolicy: ConflictPolicy = .manual,
        pushHandler: (any PushHandler)? = nil,
        transport: (any HTTPTransport)? = nil,
        headers: [String: String] = [:],
        url: URL? = nil
    ) async throws -> Device {
        let path = path ?? directory.newDatabasePath()
        let store = try SQLiteStore(path: path)
        let client = SyncClient(
            url: url ?? self.url, transport: transport, headers: authorization.merging(headers) { $1 })
        let context = try await SyncContext(
            store: store, client: client,
            configuration: SyncContext.Configuration(conflictPolicy: conflictPolicy, pushHandler: pushHandler))
        return Device(path: path, context: context, todos: try await context.table(TodoItem.self))
    }

    /// The requests the server received since the last call, and forgets them.
    ///
    /// A batch's operations are logged one by one, as the single requests they stand for; the batch
    /// itself and the capabilities request that found it are left out unless `includingExtensions`.
    func takeRequests(includingExtensions: Bool = false) async throws -> [RecordedRequest] {
        let controls = try controls
        let requests = await controls.requests()
        await controls.clearRequests()
        return requests.filter { request in
            guard !request.path.hasPrefix("/__test") else { return false }
            return includingExtensions || !request.path.hasPrefix("/sync/")
        }
    }

    /// Returns once the server has received a request of this method and path (requests are recorded as
    /// they arrive, before any injected delay); the push's `/sync/capabilities` probe comes first.
    func waitForRequest(_ method: String, _ path: String) async throws {
        let controls = try controls
        while await !controls.requests().contains(where: { $0.method == method && $0.path == path }) {
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// Drops the connection of the n-th matching request without a response.
    ///
    /// libcurl resends a request once on a fresh connection when a reused one dies before any response
    /// (the stale keep-alive race), so the resend is dropped too, and the client really sees a failure.
    func dropConnection(method: String, path: String, occurrence: Int) async throws {
        for attempt in [occurrence, occurrence + 1] {
            try await controls.addFault(
                FaultRule(method: method, path: path, occurrence: attempt, action: .dropConnection))
        }
    }

    /// The server's row, read through the protocol (soft-deleted rows included).
    func serverItem(_ id: String, table: String = "TodoItem") async throws -> JSONObject? {
        let client = SyncClient(url: url, headers: authorization)
        let page = try await client.query(
            table: table, queryString: "$filter=id%20eq%20'\(id)'&__includeDeleted=true")
        return page.items.first
    }
}

/// One simulated app installation.
struct Device: Sendable {
    let path: String
    let context: SyncContext
    let todos: SyncTable<TodoItem>
}

extension RecordedRequest {
    /// The query parameters as a set of `name=value` pairs (order is not significant on the wire).
    var querySet: Set<String> { Set(query.map { "\($0.name)=\($0.value)" }) }

    /// The top-level keys of the JSON body.
    var bodyKeys: Set<String> {
        guard let body, let object = try? JSONObject(parsing: body) else { return [] }
        return Set(object.properties.keys)
    }

    /// The `id` in the JSON body, if any.
    var bodyID: String? {
        guard let body, let object = try? JSONObject(parsing: body) else { return nil }
        return object["id"]?.stringValue
    }
}
