import Logging
import SyncTables

/// Everything a ``SyncServer`` needs to know before it starts: where to listen, where to store, and its limits.
///
/// ```swift
/// var configuration = SyncServerConfiguration(storage: .inMemory)
/// configuration.softDelete = .allTables
/// let server = try await SyncServer(configuration: configuration)
/// ```
public struct SyncServerConfiguration: Sendable {
    /// The address to bind; `127.0.0.1` unless changed.
    public var host: String
    /// The port to bind; `0` picks a free ephemeral port (read it back from ``SyncServer/port``).
    public var port: Int
    /// Where the tables live.
    public var storage: Storage
    /// The most rows one query response carries (the server page size).
    public var pageSize: Int
    /// The largest `$top` a client may ask for; larger values are refused with 400.
    public var maxTop: Int
    /// Which tables mark rows `deleted` instead of removing them.
    public var softDelete: SoftDeletePolicy
    /// The tables the server serves, their properties and access rules (`sync-server --tables`); `nil` for
    /// development mode, where any client's writes create tables and properties and every caller reaches every
    /// row. See <doc:DeclaredTables>.
    public var declaredTables: TableDeclarations?
    /// Whether DELETE answers 204 with no body (the .NET server) instead of 200 with the deleted item (Node).
    public var deleteReturnsNoContent: Bool
    /// How the server learns who sends a request: ``Authentication/none`` unless changed. See <doc:Identity>.
    public var authentication: Authentication
    /// A static token every request must carry as `Authorization: Bearer <token>` or `X-ZUMO-AUTH`; `nil` for none.
    ///
    /// The development shorthand for ``authentication`` `=` ``Authentication/staticToken(_:)``: setting a token
    /// replaces any other authentication, and setting `nil` turns a static token off (and leaves JWT
    /// verification as it is).
    public var authToken: String? {
        get {
            if case .staticToken(let token) = authentication { token } else { nil }
        }
        set {
            if let newValue {
                authentication = .staticToken(newValue)
            } else if authToken != nil {
                authentication = .none
            }
        }
    }
    /// How many requests each caller may send: no limit (`nil`) unless set. See <doc:Identity>.
    public var rateLimit: RateLimit?
    /// Who may read the Prometheus metrics at `GET /metrics`: anyone unless changed.
    public var metrics: MetricsAccess = .open
    /// The source of time for token expiry and rate limits (a `ManualSyncClock` in tests).
    package var clock: any SyncClock = SystemSyncClock()
    /// The largest request body accepted, in bytes; larger bodies are refused with 413.
    public var maxBodySize: Int
    /// The most operations one `POST /sync/batch` request may carry; `0` turns the batch extension off (the
    /// capabilities document then offers no batch and the path answers 404).
    public var maxBatchOperations: Int
    /// The most properties (columns) one table may have, `id` and the system properties included; a write
    /// that would add more is refused with 400.
    public var maxTableProperties: Int
    /// Timeouts for each step of a request and the most connections served at once.
    public var connectionLimits: ConnectionLimits
    /// Whether query responses advertise keyset incremental pulls (`X-SyncTables-Capabilities: keyset-pull`),
    /// so SyncTables clients resume a pull after an `(updatedAt, id)` position instead of using `$skip`.
    /// Turn it off only to behave like a server without the extension.
    public var advertisesKeysetPull: Bool
    /// After SIGINT or SIGTERM (``SyncServer/run()``), the longest the server keeps serving requests in flight
    /// before it cuts them off and stops; `/ready` answers 503 meanwhile. 30 seconds unless changed.
    public var drainTimeout: Duration

    /// Which responses are gzipped for clients that accept it: bodies of 1 KiB or more unless changed.
    public var responseCompression = ResponseCompression()
    /// How long the answer to a write carrying an `Idempotency-Key` is kept for a repeat of the write, which
    /// gets it instead of running again: 24 hours unless changed; zero turns the idempotency extension off
    /// (the capabilities document then offers none and keys are ignored). See <doc:IdempotentWrites>.
    public var idempotencyKeyRetention: Duration = .seconds(24 * 60 * 60)
    /// The directory blobs are kept in (see <doc:Blobs>); `nil` keeps them in the PostgreSQL database (where
    /// every instance sharing it serves them), beside the SQLite database file (`<file>.blobs`), or in a
    /// temporary directory for an in-memory database.
    public var blobDirectory: String?
    /// The largest blob in bytes (a larger upload is refused with 413); 0 turns the blob endpoints off.
    public var maxBlobBytes: Int64 = 1 << 30
    /// How long an unfinished resumable upload is kept for its client to resume it.
    public var blobRetention: Duration = .seconds(24 * 60 * 60)
    /// How long a blob no live row references is kept after its last upload, for a row to reference it: 7 days
    /// unless changed. Only with ``declaredTables``: in development mode no references are known, and blobs are
    /// kept.
    public var blobHorizon: Duration = .seconds(7 * 24 * 60 * 60)
    /// How often an idle change feed (`GET /sync/changes`) sends a heartbeat: 15 seconds unless changed; zero
    /// turns change feeds off (the capabilities document then offers none and the path answers 404).
    ///
    /// On PostgreSQL, turn feeds on or off on every instance of a database together: an instance with feeds
    /// off does not announce its writes to the others. See <doc:ChangeFeed>.
    public var changeHeartbeat: Duration = .seconds(15)
    /// How many recent changes the server keeps, so that a feed reconnecting with `Last-Event-ID` gets the
    /// changes it missed instead of a reset: 10,000 unless changed.
    public var changeHistory: Int = 10_000
    /// The most change feeds open at once; more are refused with 503 and `Retry-After`. `nil` (the default)
    /// allows half of ``ConnectionLimits/maxConnections``, so feeds never take every connection.
    public var maxChangeFeeds: Int?
    /// Whether to log one line per request through the logger.
    public var logRequests: Bool
    /// What runs around every request before the server's own routes: none unless a testing module installs
    /// some (`SyncTablesServerTesting`'s test controls).
    package var middleware: [ServerMiddlewareInstaller] = []
    /// The logger for requests and lifecycle events.
    public var logger: Logger

    /// Where a ``SyncServer`` keeps its tables.
    public enum Storage: Sendable {
        /// A SQLite database file at this path, created when absent.
        case file(path: String)
        /// A SQLite database in memory, gone when the server stops.
        case inMemory
        /// A SQLite store the caller opened (and closes after the server stops).
        case store(SQLiteStore)
        /// A PostgreSQL database, which several server instances can share.
        case postgres(PostgresStorage)
    }

    /// Creates a configuration with the defaults of `sync-server`.
    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        storage: Storage = .inMemory,
        pageSize: Int = 50,
        maxTop: Int = 1000,
        softDelete: SoftDeletePolicy = .none,
        declaredTables: TableDeclarations? = nil,
        deleteReturnsNoContent: Bool = false,
        authToken: String? = nil,
        maxBodySize: Int = 1024 * 1024,
        maxBatchOperations: Int = 100,
        maxTableProperties: Int = 256,
        connectionLimits: ConnectionLimits = ConnectionLimits(),
        advertisesKeysetPull: Bool = true,
        drainTimeout: Duration = .seconds(30),
        logRequests: Bool = false,
        logger: Logger = Logger(label: "sync-server")
    ) {
        self.host = host
        self.port = port
        self.storage = storage
        self.pageSize = pageSize
        self.maxTop = maxTop
        self.softDelete = softDelete
        self.declaredTables = declaredTables
        self.deleteReturnsNoContent = deleteReturnsNoContent
        self.authentication = authToken.map(Authentication.staticToken) ?? .none
        self.maxBodySize = maxBodySize
        self.maxBatchOperations = maxBatchOperations
        self.maxTableProperties = maxTableProperties
        self.connectionLimits = connectionLimits
        self.advertisesKeysetPull = advertisesKeysetPull
        self.drainTimeout = drainTimeout
        self.logRequests = logRequests
        self.logger = logger
    }
}

extension SyncServerConfiguration {
    /// Whether the server serves change feeds.
    var offersChangeFeeds: Bool { changeHeartbeat > .zero }

    /// ``maxChangeFeeds``, or its default: half of the connections (at least one).
    var effectiveMaxChangeFeeds: Int {
        maxChangeFeeds ?? max(1, connectionLimits.maxConnections / 2)
    }

    /// Whether requests come from verified token subjects (JWT), which declared tables need.
    var verifiesTokens: Bool {
        if case .jwt = authentication { return true }
        return false
    }

    /// ``softDelete`` with the declared tables that soft-delete added.
    var effectiveSoftDelete: SoftDeletePolicy {
        guard let declared = declaredTables?.softDeleteTables, !declared.isEmpty else { return softDelete }
        switch softDelete {
        case .allTables: return .allTables
        case .none: return .tables(declared)
        case .tables(let names): return .tables(names.union(declared))
        }
    }
}

/// Which tables keep deleted rows as tombstones (`deleted: true`) so incremental pulls can see deletions.
public enum SoftDeletePolicy: Sendable, Hashable {
    /// Deletes remove rows.
    case none
    /// Every table soft-deletes.
    case allTables
    /// Only the named tables soft-delete.
    case tables(Set<String>)

    /// Whether deletes in `table` are soft.
    public func appliesTo(_ table: String) -> Bool {
        switch self {
        case .none: false
        case .allTables: true
        case .tables(let names): names.contains(table)
        }
    }
}
