import ArgumentParser
import Foundation
import Logging
import SyncTablesServer
import SyncTablesServerTesting

/// `sync-server serve`, the default command: the SyncTables reference backend (Azure Mobile Apps table protocol v2).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve sync tables over HTTP (Azure Mobile Apps table protocol v2). The default command.",
        discussion: """
            Tables are created on first use unless --tables declares them. Stop with Ctrl-C (SIGINT) or SIGTERM:
            /ready answers 503 at once and requests in flight finish first (at most --drain-timeout seconds). GET /health and GET /ready are the
            probes for a load balancer; GET /metrics serves Prometheus metrics.
            Example: sync-server --port 8080 --db ./server.sqlite --soft-delete
            With identities: sync-server --jwt-keys https://<tenant>/.well-known/jwks.json --jwt-issuer https://<tenant>/ \\
              --jwt-audience <api>   (for development: sync-server dev-token --sub alice, then --jwt-keys <its key file>)
            """
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free port).")
    var port = 8080

    @Option(help: "The SQLite database file (created when absent).")
    var db = "./server.sqlite"

    @Flag(help: "Keep everything in memory instead of --db (data is lost on exit).")
    var inMemory = false

    @Option(
        help: ArgumentHelp(
            "Store in PostgreSQL instead of --db: postgres://user[:password]@host[:port]/database[?sslmode=require].",
            discussion: "Defaults to the SYNC_SERVER_DATABASE_URL environment variable. Several servers may share it."
        )
    )
    var database: String?

    @Option(help: "The PostgreSQL schema the tables live in (created when absent).")
    var databaseSchema = "public"

    @Option(help: "The most PostgreSQL connections this server opens.")
    var poolSize = 20

    @Option(help: "The most rows one query response carries.")
    var pageSize = 50

    @Option(help: "The largest $top a client may request (larger is refused with 400).")
    var maxTop = 1000

    @Flag(help: "Soft-delete rows in every table (DELETE marks deleted=true).")
    var softDelete = false

    @Option(
        name: .customLong("soft-delete-table"),
        help: "Soft-delete rows only in this table (repeatable)."
    )
    var softDeleteTables: [String] = []

    @Flag(help: "Answer DELETE with 204 and no body (as the .NET server does) instead of 200 with the item.")
    var deleteNoContent = false

    @Option(
        help: "Development: require this static token as 'Authorization: Bearer <token>' or 'X-ZUMO-AUTH' (else 401).")
    var authToken: String?

    @Option(
        help: ArgumentHelp(
            "Serve only the tables this YAML file declares, with their properties and access rules.",
            discussion: "Without it the server is in development mode: writes create tables and properties.",
            valueName: "tables.yaml"
        )
    )
    var tables: String?

    @Option(
        help: ArgumentHelp(
            "Require JSON Web Tokens signed by a key of this JSON Web Key Set: a file, or an https URL (jwks_uri).",
            discussion:
                "Keys are read again when a token names an unknown key id (at most every --jwt-reload-interval seconds) and hourly.",
            valueName: "file-or-url"))
    var jwtKeys: String?

    @Option(help: "With --jwt-keys: the issuer (iss) every token must carry.")
    var jwtIssuer: String?

    @Option(help: "With --jwt-keys: the audience every token's aud must include.")
    var jwtAudience: String?

    @Option(help: "With --jwt-keys: how many seconds a token's exp and nbf may be off from this server's clock.")
    var jwtLeeway = 60.0

    @Option(help: "With --jwt-keys: the fewest seconds between two key reloads caused by an unknown key id.")
    var jwtReloadInterval = 30.0

    @Option(
        help: "Limit each caller (token subject, else client address) to this many requests per second (429 beyond).")
    var rateLimit: Double?

    @Option(help: "With --rate-limit: the most requests a caller may send at once (default: one second's worth).")
    var rateBurst: Int?

    @Option(
        help:
            "Serve GET /metrics only with 'Authorization: Bearer <token>' (by default anyone who reaches the server may read it)."
    )
    var metricsToken: String?

    @Flag(help: "Do not serve GET /metrics.")
    var noMetrics = false

    @Option(help: "The largest request body in bytes (larger is refused with 413).")
    var maxBodySize = 1024 * 1024

    @Option(
        help: ArgumentHelp(
            "The directory blobs (/sync/blobs) are kept in, created when absent.",
            discussion: """
                Default: in the PostgreSQL database with a postgres:// --database (every instance sharing it \
                serves every blob), beside the SQLite database (<file>.blobs), or a temporary directory without \
                --database.
                """))
    var blobDirectory: String?

    @Option(help: "The largest blob in bytes (a larger upload is refused with 413); 0 turns /sync/blobs off.")
    var maxBlobBytes: Int64 = 1 << 30

    @Option(help: "How many seconds an unfinished resumable blob upload is kept for its client to resume.")
    var blobRetention = 86400.0

    @Option(
        help: ArgumentHelp(
            "How many seconds a blob no live row references is kept after its last upload, for a row to name it.",
            discussion:
                "Only with --tables: without declared tables no references are known, and blobs are kept."))
    var blobHorizon = 604800.0

    @Option(help: "The most operations one POST /sync/batch may carry; 0 turns the batch extension off.")
    var maxBatchOperations = 100

    @Option(
        help: ArgumentHelp(
            "How many seconds the answer to a write with an Idempotency-Key is kept for a repeat; 0 turns keys off.",
            discussion: "A repeat of a keyed write gets the first answer instead of running again."))
    var idempotencyRetention = 86400.0

    @Option(help: "Gzip response bodies of at least this many bytes for clients that accept it; 0 turns it off.")
    var compressionThreshold = 1024

    @Option(help: "The most properties one table may have (a write adding more is refused with 400).")
    var maxTableProperties = 256

    @Option(help: "Close a connection that waits this many seconds for its next request.")
    var idleTimeout = 60.0

    @Option(help: "Answer 408 and close when a request's headers take longer than this many seconds.")
    var headerTimeout = 10.0

    @Option(help: "Close when a request's body takes longer than this many seconds after its headers.")
    var bodyTimeout = 30.0

    @Option(help: "The most connections served at once (more wait in the listen backlog).")
    var maxConnections = 1024

    @Option(help: "After SIGINT or SIGTERM, the most seconds requests in flight get to finish.")
    var drainTimeout = 30.0

    @Option(
        help: ArgumentHelp(
            "How many seconds an idle change feed (GET /sync/changes) waits before a heartbeat; 0 turns feeds off.",
            discussion: "With --database, turn feeds on or off on every instance of the database together."))
    var changeHeartbeat = 15.0

    @Option(help: "How many recent changes are kept for change feeds that reconnect with Last-Event-ID.")
    var changeHistory = 10_000

    @Option(help: "The most change feeds open at once (more get 503); default: half of --max-connections.")
    var maxChangeFeeds: Int?

    @Flag(help: "Do not advertise keyset incremental pulls (clients then page with $skip, as with other servers).")
    var noKeysetPull = false

    @Option(help: "The log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    @Flag(help: "Log one line per request.")
    var logRequests = false

    @Flag(help: "Development only: serve the /__test fault-injection and seeding API. UNSAFE: never in production.")
    var enableTestControls = false

    func validate() throws {
        guard pageSize > 0 else { throw ValidationError("--page-size must be positive.") }
        guard maxTop > 0 else { throw ValidationError("--max-top must be positive.") }
        guard maxBodySize > 0 else { throw ValidationError("--max-body-size must be positive.") }
        guard maxBlobBytes >= 0 else { throw ValidationError("--max-blob-bytes must not be negative.") }
        guard blobRetention > 0, blobRetention.isFinite else {
            throw ValidationError("--blob-retention must be positive.")
        }
        guard blobHorizon > 0, blobHorizon.isFinite else { throw ValidationError("--blob-horizon must be positive.") }
        guard maxBatchOperations >= 0 else { throw ValidationError("--max-batch-operations must not be negative.") }
        guard idempotencyRetention >= 0, idempotencyRetention.isFinite else {
            throw ValidationError("--idempotency-retention must not be negative.")
        }
        guard compressionThreshold >= 0 else { throw ValidationError("--compression-threshold must not be negative.") }
        guard maxTableProperties > 0 else { throw ValidationError("--max-table-properties must be positive.") }
        guard maxConnections > 0 else { throw ValidationError("--max-connections must be positive.") }
        guard poolSize > 0 else { throw ValidationError("--pool-size must be positive.") }
        guard changeHeartbeat >= 0, changeHeartbeat.isFinite else {
            throw ValidationError("--change-heartbeat must not be negative.")
        }
        guard changeHistory >= 0 else { throw ValidationError("--change-history must not be negative.") }
        if let maxChangeFeeds {
            guard maxChangeFeeds > 0 else { throw ValidationError("--max-change-feeds must be positive.") }
        }
        try validateIdentityOptions()
        if let url = databaseURL {
            guard !inMemory else { throw ValidationError("--in-memory and --database cannot be combined.") }
            do {
                _ = try PostgresStorage(url: url)
            } catch {
                throw ValidationError(error.description)
            }
        }
        let timeouts = [
            ("idle", idleTimeout), ("header", headerTimeout), ("body", bodyTimeout), ("drain", drainTimeout),
        ]
        for (name, seconds) in timeouts {
            guard seconds > 0, seconds.isFinite else { throw ValidationError("--\(name)-timeout must be positive.") }
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("Unknown --log-level '\(logLevel)'.")
        }
        _ = try declaredTables()
    }

    /// The `--tables` declarations, or `nil` without the option; an unreadable or invalid file is a usage error.
    private func declaredTables() throws -> TableDeclarations? {
        guard let tables else { return nil }
        do {
            return try TableDeclarations(contentsOfFile: tables)
        } catch {
            throw ValidationError("--tables: \(error.message)")
        }
    }

    func run() async throws {
        var logger = Logger(label: "sync-server")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let softDeletePolicy: SoftDeletePolicy =
            softDelete ? .allTables : softDeleteTables.isEmpty ? .none : .tables(Set(softDeleteTables))
        var configuration = SyncServerConfiguration(
            host: host,
            port: port,
            storage: try storage(),
            pageSize: pageSize,
            maxTop: maxTop,
            softDelete: softDeletePolicy,
            deleteReturnsNoContent: deleteNoContent,
            authToken: nil,
            maxBodySize: maxBodySize,
            maxBatchOperations: maxBatchOperations,
            maxTableProperties: maxTableProperties,
            connectionLimits: ConnectionLimits(
                idleTimeout: .milliseconds(Int64(idleTimeout * 1000)),
                requestHeadTimeout: .milliseconds(Int64(headerTimeout * 1000)),
                requestBodyTimeout: .milliseconds(Int64(bodyTimeout * 1000)),
                maxConnections: maxConnections
            ),
            advertisesKeysetPull: !noKeysetPull,
            drainTimeout: .milliseconds(Int64(drainTimeout * 1000)),
            logRequests: logRequests,
            logger: logger
        )
        configuration.declaredTables = try declaredTables()
        configuration.idempotencyKeyRetention = .milliseconds(Int64(idempotencyRetention * 1000))
        configuration.blobDirectory = blobDirectory
        configuration.maxBlobBytes = maxBlobBytes
        configuration.blobRetention = .milliseconds(Int64(blobRetention * 1000))
        configuration.blobHorizon = .milliseconds(Int64(blobHorizon * 1000))
        configuration.responseCompression = ResponseCompression(
            minimumSize: compressionThreshold > 0 ? compressionThreshold : nil)
        configuration.authentication = authentication
        configuration.rateLimit = rateLimit.map {
            RateLimit(requestsPerSecond: $0, burst: rateBurst ?? max(1, Int($0.rounded(.up))))
        }
        configuration.metrics = noMetrics ? .off : metricsToken.map(MetricsAccess.token) ?? .open
        configuration.changeHeartbeat = .milliseconds(Int64(changeHeartbeat * 1000))
        configuration.changeHistory = changeHistory
        configuration.maxChangeFeeds = maxChangeFeeds
        configuration.enableTestControls = enableTestControls
        if enableTestControls {
            logger.warning(
                "Test controls are enabled under /__test: anyone who can reach this server can rewrite data.")
        }
        if PortCheck.isInUse(host: host, port: port) { throw portInUse() }
        let server = try await SyncServer(configuration: configuration)
        do {
            try await server.run()
        } catch  where PortCheck.isAddressInUse(error) {
            throw portInUse()
        }
    }

    private func validateIdentityOptions() throws {
        if jwtKeys != nil, authToken != nil {
            throw ValidationError("--auth-token and --jwt-keys cannot be combined.")
        }
        if jwtKeys == nil, jwtIssuer != nil || jwtAudience != nil {
            throw ValidationError("--jwt-issuer and --jwt-audience need --jwt-keys.")
        }
        if let jwtKeys, case .url(let url) = JWTVerification.KeySource(argument: jwtKeys),
            url.scheme?.lowercased() == "http",
            !["127.0.0.1", "::1", "localhost"].contains(url.host?.lowercased() ?? "")
        {
            throw ValidationError("--jwt-keys must be an https URL (plain http only on a loopback host).")
        }
        guard jwtLeeway >= 0, jwtLeeway.isFinite else { throw ValidationError("--jwt-leeway must not be negative.") }
        guard jwtReloadInterval >= 0, jwtReloadInterval.isFinite else {
            throw ValidationError("--jwt-reload-interval must not be negative.")
        }
        if let rateLimit {
            guard rateLimit > 0, rateLimit.isFinite else { throw ValidationError("--rate-limit must be positive.") }
        }
        if let rateBurst {
            guard rateLimit != nil else { throw ValidationError("--rate-burst needs --rate-limit.") }
            guard rateBurst > 0 else { throw ValidationError("--rate-burst must be positive.") }
        }
        if noMetrics, metricsToken != nil {
            throw ValidationError("--no-metrics and --metrics-token cannot be combined.")
        }
    }

    /// `--jwt-keys` (with its issuer and audience), else `--auth-token`, else none.
    private var authentication: Authentication {
        if let jwtKeys {
            return .jwt(
                JWTVerification(
                    keys: JWTVerification.KeySource(argument: jwtKeys), issuer: jwtIssuer, audience: jwtAudience,
                    leeway: .milliseconds(Int64(jwtLeeway * 1000)),
                    minimumReloadInterval: .milliseconds(Int64(jwtReloadInterval * 1000))))
        }
        return authToken.map(Authentication.staticToken) ?? .none
    }

    /// `--database`, else `SYNC_SERVER_DATABASE_URL` when set and not empty.
    private var databaseURL: String? {
        database ?? ProcessInfo.processInfo.environment["SYNC_SERVER_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    private func storage() throws -> SyncServerConfiguration.Storage {
        guard let url = databaseURL else { return inMemory ? .inMemory : .file(path: db) }
        var database = try PostgresStorage(url: url)
        database.schema = databaseSchema
        database.poolSize = poolSize
        return .postgres(database)
    }

    /// Reports a busy port in one line and exits 1.
    private func portInUse() -> ExitCode {
        FileHandle.standardError.write(
            Data(
                "sync-server: error: port \(port) is in use on \(host); stop the other server or pick another --port\n"
                    .utf8))
        return ExitCode(1)
    }
}
