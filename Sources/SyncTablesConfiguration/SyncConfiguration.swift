import Foundation
import SyncTables
import Yams

/// A sync configuration: what the `SyncEngine` keeps in sync and its policies, read from a YAML or JSON
/// file (JSON is read as YAML).
///
/// ```yaml
/// engine:
///   minimumCycleInterval: 5s
///   maxQueueSize: 10000
///   historyLimit: 500
///   breakerThreshold: 5
///   breakerCooldown: 1m
///   retry: { baseDelay: 1s, maximumDelay: 5m, maxAttempts: 8 }
/// definitions:
///   - table: TodoItem
///     queryId: all-todos
///     interval: 30s
///     triggers: [appStart, networkReconnect, { afterLocalWrite: 2s }]
///     maxAge: 10s
///     pageSize: 100
///     conflictPolicy: serverWins
/// ```
///
/// ```swift
/// let configuration = try SyncConfiguration.load(contentsOf: "sync.yml")
/// let context = try await SyncContext(
///     store: store, client: client, configuration: configuration.contextConfiguration())
/// let engine = try await configuration.makeEngine(context: context)
/// await engine.start()
/// ```
///
/// A file with a mistake throws a ``SyncConfigurationError`` naming the line and key, e.g.
/// `sync.yml:7: definitions[0].interval: 'soon' is not a duration (write e.g. 500ms, 30s, 5m, 1h)`.
public struct SyncConfiguration: Sendable, Equatable {
    /// One table (or query of it) to keep in sync.
    public struct Definition: Sendable, Equatable {
        /// The table's name.
        public var table: String
        /// The incremental pull's query id; `nil` for a full pull.
        public var queryId: String?
        /// When the engine syncs it by itself.
        public var schedule: SyncSchedule
        /// The pull's page size; `nil` for the default.
        public var pageSize: Int?
        /// The policy for the table's conflicts, replacing the context's; `nil` keeps it.
        public var conflictPolicy: ConflictPolicyName?

        /// A definition.
        public init(
            table: String, queryId: String? = nil, schedule: SyncSchedule = SyncSchedule(), pageSize: Int? = nil,
            conflictPolicy: ConflictPolicyName? = nil
        ) {
            self.table = table
            self.queryId = queryId
            self.schedule = schedule
            self.pageSize = pageSize
            self.conflictPolicy = conflictPolicy
        }
    }

    /// The conflict policies a file can name.
    public enum ConflictPolicyName: String, Sendable, CaseIterable {
        /// `ConflictPolicy.manual`.
        case manual
        /// `ConflictPolicy.serverWins`.
        case serverWins
        /// `ConflictPolicy.clientWins`.
        case clientWins

        /// The policy the name stands for.
        public var policy: ConflictPolicy {
            switch self {
            case .manual: .manual
            case .serverWins: .serverWins
            case .clientWins: .clientWins
            }
        }
    }

    /// Retries, circuit breaker and minimum cycle interval (`engine:` in the file).
    public var engine: SyncEngineConfiguration
    /// The queue's limit (`engine.maxQueueSize`; see `SyncContext.Configuration.maxQueueSize`); `nil`: none.
    public var maxQueueSize: Int?
    /// How much operation history the context keeps (`engine.historyLimit`, `engine.historyMaxAge`; see
    /// `SyncContext.Configuration.historyRetention`); `nil` keeps the context's.
    public var historyRetention: OperationHistoryRetention?
    /// What the engine syncs, in pull order.
    public var definitions: [Definition]

    /// A configuration.
    public init(
        engine: SyncEngineConfiguration = SyncEngineConfiguration(), maxQueueSize: Int? = nil,
        historyRetention: OperationHistoryRetention? = nil, definitions: [Definition] = []
    ) {
        self.engine = engine
        self.maxQueueSize = maxQueueSize
        self.historyRetention = historyRetention
        self.definitions = definitions
    }

    /// Reads and checks the file at `path`.
    ///
    /// Throws ``SyncConfigurationError`` when the file cannot be read or has a mistake.
    public static func load(contentsOf path: String) throws(SyncConfigurationError) -> SyncConfiguration {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else { throw SyncConfigurationError(file: path, line: nil, key: nil, message: "cannot read the file") }
        return try parse(text, file: path)
    }

    /// Parses and checks `text`; `file` names it in errors.
    ///
    /// Throws ``SyncConfigurationError`` for a mistake.
    public static func parse(_ text: String, file: String = "configuration") throws(SyncConfigurationError)
        -> SyncConfiguration
    {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw SyncConfigurationError(file: file, syntaxError: error)
        }
        guard let root else {
            throw SyncConfigurationError(file: file, line: 1, key: nil, message: "the file is empty")
        }
        return try ConfigurationReader(file: file).configuration(root)
    }
}
