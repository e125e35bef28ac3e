import ArgumentParser
import Foundation
import Logging
import SyncTablesServer
import SyncTablesServerTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `sync-server`: the SyncTables reference backend (Azure Mobile Apps table protocol v2).
@main
struct SyncServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync-server",
        abstract: "Serve sync tables over HTTP (Azure Mobile Apps table protocol v2).",
        discussion: """
            Tables are created on first use unless --tables declares them. Stop with Ctrl-C (SIGINT) or SIGTERM: /ready answers 503 at once and
            requests in flight finish first (at most --drain-timeout seconds). GET /health and GET /ready are the
            probes for a load balancer.
            Example: sync-server --port 8080 --db ./server.sqlite --soft-delete
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

    @Option(help: "Require this token as 'Authorization: Bearer <token>' or 'X-ZUMO-AUTH' (else 401).")
    var authToken: String?

    @Option(
        help: ArgumentHelp(
            "Serve only the tables this YAML file declares, with their properties and access rules.",
            discussion: "Without it the server is in development mode: writes create tables and properties.",
            valueName: "tables.yaml"
        )
    )
    var tables: String?

    @Option(help: "The largest request body in bytes (larger is refused with 413).")
    var maxBodySize = 1024 * 1024

    @Option(help: "The most operations one POST /sync/batch may carry; 0 turns the batch extension off.")
    var maxBatchOperations = 100

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
        guard maxBatchOperations >= 0 else { throw ValidationError("--max-batch-operations must not be negative.") }
        guard compressionThreshold >= 0 else { throw ValidationError("--compression-threshold must not be negative.") }
        guard maxTableProperties > 0 else { throw ValidationError("--max-table-properties must be positive.") }
        guard maxConnections > 0 else { throw ValidationError("--max-connections must be positive.") }
        guard poolSize > 0 else { throw ValidationError("--pool-size must be positive.") }
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
            authToken: authToken,
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
        configuration.responseCompression = ResponseCompression(
            minimumSize: compressionThreshold > 0 ? compressionThreshold : nil)
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

/// Whether another process already listens on a port, checked before the server starts so that a busy
/// port is one clear line instead of a bind error from deep inside the HTTP stack.
enum PortCheck {
    /// `true` when `port` on the IPv4 address `host` cannot be bound because it is in use. Other hosts
    /// (names, IPv6) and port 0 are not checked: the server's own bind reports them.
    static func isInUse(host: String, port: Int) -> Bool {
        guard port > 0, port <= 65535 else { return false }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return false }
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        // The server binds with SO_REUSEADDR too, so only a port that is really taken fails here.
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return result != 0 && errno == EADDRINUSE
    }

    /// `true` when an error thrown while starting the server says the address is in use.
    static func isAddressInUse(_ error: any Error) -> Bool {
        String(describing: error).contains("Address already in use")
    }
}
