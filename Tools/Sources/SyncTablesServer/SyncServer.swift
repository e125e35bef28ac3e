import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import SyncTables
@_spi(SyncTablesTools) import SyncTablesCore
import UnixSignals

/// The reference backend: the Azure Mobile Apps table protocol v2 over HTTP, on Hummingbird, storing in a
/// `SQLiteStore` (a file or memory) or in a PostgreSQL database several instances share.
///
/// Embed it in tests (ephemeral port, in-memory store) or run it with the `sync-server` command.
///
/// ```swift
/// let server = try await SyncServer(configuration: SyncServerConfiguration(storage: .inMemory))
/// try await server.start()
/// let url = try #require(server.url)  // http://127.0.0.1:54321
/// // … talk to url/tables/todo …
/// try await server.stop()
/// ```
public final class SyncServer: Sendable {
    /// The configuration the server was created with.
    public let configuration: SyncServerConfiguration
    /// What runs around every request before the server's own routes, as ``SyncServerConfiguration/middleware``
    /// installed it.
    package let middleware: [any ServerMiddleware]

    let storage: any TableStorage
    private let tables: TableService
    private let idempotency: IdempotentWrites
    private let authenticator: RequestAuthenticator
    private let metrics: ServerMetrics
    /// The change feeds' hub; `nil` when ``SyncServerConfiguration/changeHeartbeat`` turns them off.
    let changes: ChangeHub?
    /// Where blobs are kept; `nil` when the configuration offers none.
    let blobs: (any BlobStorage)?
    /// Who may use which blob, with declared tables; `nil` in development mode or without blobs.
    private let blobAccess: BlobAccess?
    private let state = LockedState(RunningState())
    private let drain = ServerDrain()

    /// Opens the storage and prepares the server; nothing listens until ``start()`` or ``run()``.
    ///
    /// - Throws: ``TableDeclarationError`` when the declared tables' references are wrong, and what opening the
    ///   storage or the JWT keys throws.
    public init(configuration: SyncServerConfiguration) async throws {
        try configuration.declaredTables?.validate()  // declarations made in code, not read from YAML
        self.configuration = configuration
        authenticator = try await RequestAuthenticator(
            configuration.authentication, clock: configuration.clock, logger: configuration.logger)
        let metrics = ServerMetrics()
        self.metrics = metrics
        let changes =
            configuration.offersChangeFeeds
            ? ChangeHub(
                heartbeat: configuration.changeHeartbeat, historyLimit: configuration.changeHistory,
                maxFeeds: configuration.effectiveMaxChangeFeeds, metrics: metrics) : nil
        self.changes = changes
        let announcer = ChangeAnnouncer(declarations: configuration.declaredTables, hub: changes)
        let referencing = BlobReferencing(declarations: configuration.declaredTables, clock: configuration.clock)
        switch configuration.storage {
        case .file(let path):
            storage = SQLiteTableStorage(
                store: try await Self.openFileStore(path: path), ownsStore: true, announcer: announcer,
                blobReferencing: referencing)
        case .inMemory:
            storage = SQLiteTableStorage(
                store: try await Self.openMemoryStore(), ownsStore: true, announcer: announcer,
                blobReferencing: referencing)
        case .store(let provided):
            storage = SQLiteTableStorage(
                store: provided, ownsStore: false, announcer: announcer, blobReferencing: referencing)
        case .postgres(let database):
            storage = try await PostgresTableStorage.open(
                database, announcer: announcer, blobReferencing: referencing, logger: configuration.logger)
        }
        let blobs = try await BlobSettings.open(configuration, beside: storage)
        self.blobs = blobs
        if let declarations = configuration.declaredTables, let blobs {
            blobAccess = BlobAccess(
                declarations: declarations, referencing: referencing, index: storage, storage: blobs)
        } else {
            blobAccess = nil
        }
        var tables = TableService(
            storage: storage,
            softDelete: configuration.effectiveSoftDelete,
            definedTables: DefinedTables(),
            declarations: configuration.declaredTables,
            properties: TableProperties(limit: configuration.maxTableProperties)
        )
        tables.blobAccess = blobAccess
        self.tables = tables
        idempotency = IdempotentWrites(storage: storage, configuration: configuration)
        let serverTables = ServerTables(service: tables, changes: changes)
        middleware = configuration.middleware.map { $0.make(serverTables) }
    }

    /// The port the server listens on, once started (the real one when configured with port 0).
    public var port: Int? { state.withLock { $0.port } }

    /// The base URL, e.g. `http://127.0.0.1:54321`, once started.
    public var url: URL? {
        port.flatMap { URL(string: "http://\(Self.urlHost(configuration.host)):\($0)") }
    }

    /// Starts listening in the background and returns once the port is bound.
    public func start() async throws {
        try await launch()
    }

    /// Stops accepting connections, ends the change feeds, finishes in-flight requests, and closes the store it
    /// opened.
    public func stop() async throws {
        let running = state.withLock { state -> (ServiceGroup, Task<Void, any Error>)? in
            defer {
                state.group = nil
                state.task = nil
                state.port = nil
            }
            guard let group = state.group, let task = state.task else { return nil }
            return (group, task)
        }
        changes?.shutDown()
        if let (group, task) = running {
            drain.beginDraining()
            await group.triggerGracefulShutdown()
            _ = await task.result
        }
        try await storage.close()
        try await blobs?.close()
    }

    /// Runs in the foreground until SIGINT or SIGTERM, then drains and returns.
    ///
    /// On the first signal `/ready` answers 503 at once and the change feeds end (their clients reconnect,
    /// elsewhere); the server goes on serving until no request is in flight, then stops listening and finishes
    /// the responses it is writing, all within
    /// ``SyncServerConfiguration/drainTimeout`` (requests still running then are cut off). A second signal
    /// stops at once. See <doc:SeveralInstances>.
    public func run() async throws {
        // Trapped before the port opens, so no signal can kill the process the default way meanwhile.
        let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm)
        try await launch()
        let (running, serving) = state.withLock { ($0.group, $0.task) }
        guard let group = running, let task = serving else { return }
        let shutdown = ShutdownOnSignals(
            signals: signals, drain: drain, changes: changes, configuration: configuration)
        let watcher = Task { await shutdown.watch(group: group, task: task) }
        let result = await task.result
        watcher.cancel()
        try await storage.close()
        try await blobs?.close()
        if !drain.isDraining { try result.get() }
    }

    private func launch() async throws {
        if configuration.declaredTables != nil, !configuration.verifiesTokens {
            configuration.logger.warning(
                "Declared tables without JWT verification (--jwt-keys): every request to them is refused with 401.")
        }
        if configuration.declaredTables == nil {
            configuration.logger.notice(
                """
                Development mode: any client's writes create tables and properties, and every caller reaches \
                every row. Declare the tables and their access rules with --tables before serving real users.
                """)
        }
        let started = StartSignal()
        let responder = SyncResponder(
            configuration: configuration, tables: tables, idempotency: idempotency, middleware: middleware,
            authenticator: authenticator,
            rateLimiter: configuration.rateLimit.map { RateLimiter(limit: $0, clock: configuration.clock) },
            metrics: metrics, changes: changes,
            blobs: blobs.map { BlobService(storage: $0, access: blobAccess, configuration: configuration) })
        let limits = configuration.connectionLimits
        let application = Application(
            responder: ObservingResponder(
                next: ProbeResponder(
                    next: CompressingResponder(inner: responder, compression: configuration.responseCompression),
                    storage: storage, drain: drain, metrics: metrics, metricsAccess: configuration.metrics),
                metrics: metrics),
            server: GuardedHTTP1Channel.builder(limits: limits),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: "sync-server",
                availableConnectionsDelegate: MaximumAvailableConnections(
                    limits.maxConnections, logger: configuration.logger)
            ),
            onServerRunning: { channel in started.succeed(port: channel.localAddress?.port ?? 0) },
            logger: configuration.logger
        )
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [application],
                logger: configuration.logger
            )
        )
        let task = Task {
            do {
                try await group.run()
                started.fail(SyncServerError.stoppedBeforeListening)
            } catch {
                started.fail(error)
                throw error
            }
        }
        try state.withLock { state in
            guard state.group == nil else { throw SyncServerError.alreadyStarted }
            state.group = group
            state.task = task
        }
        let port = try await started.wait()
        state.withLock { $0.port = port }
    }

    private static func urlHost(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }
}

/// Why a ``SyncServer`` could not start.
public enum SyncServerError: Error, Sendable, Hashable {
    /// ``SyncServer/start()`` was called on a server that is already running.
    case alreadyStarted
    /// The server stopped before it bound its port (for example, the port was taken).
    case stoppedBeforeListening
}

/// The lifecycle of a running server: its service group, the task running it and the port it bound.
private struct RunningState {
    var group: ServiceGroup?
    var task: Task<Void, any Error>?
    var port: Int?
}

/// A one-shot rendezvous between the server task (which learns the bound port) and ``SyncServer/start()``.
private final class StartSignal: Sendable {
    private struct State {
        var result: Result<Int, any Error>?
        var waiter: CheckedContinuation<Int, any Error>?
    }

    private let state = LockedState(State())

    func succeed(port: Int) { finish(.success(port)) }
    func fail(_ error: any Error) { finish(.failure(error)) }

    func wait() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let result = state.withLock { state in
                if state.result == nil { state.waiter = continuation }
                return state.result
            }
            if let result { continuation.resume(with: result) }
        }
    }

    private func finish(_ outcome: Result<Int, any Error>) {
        let waiting = state.withLock { state -> CheckedContinuation<Int, any Error>? in
            guard state.result == nil else { return nil }
            state.result = outcome
            defer { state.waiter = nil }
            return state.waiter
        }
        waiting?.resume(with: outcome)
    }
}
