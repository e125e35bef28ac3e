import Foundation
import SyncTables
import Yams

/// A sync configuration file (YAML, or JSON, which is read as YAML): the engine's policies and what it syncs.
///
/// ```yaml
/// engine:
///   minimumCycleInterval: 5s
///   maxQueueSize: 10000
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
struct SyncFileConfiguration: Equatable {
    /// One table to keep in sync.
    struct Definition: Equatable {
        var table: String
        var queryId: String?
        var schedule = SyncSchedule()
        var pageSize: Int?
        var conflictPolicy: ConflictPolicyName?
    }

    /// The conflict policies a file can name.
    enum ConflictPolicyName: String, CaseIterable {
        case manual, serverWins, clientWins
    }

    var engine = SyncEngineConfiguration()
    var maxQueueSize: Int?
    var definitions: [Definition] = []

    /// Reads and checks the file at `path`.
    static func load(path: String) throws(ConfigurationError) -> SyncFileConfiguration {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else { throw ConfigurationError(file: path, line: nil, key: nil, message: "cannot read the file") }
        return try parse(text, file: path)
    }

    /// Parses and checks `text`; `file` names it in errors.
    static func parse(_ text: String, file: String) throws(ConfigurationError) -> SyncFileConfiguration {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw ConfigurationError(file: file, syntaxError: error)
        }
        guard let root else {
            throw ConfigurationError(file: file, line: 1, key: nil, message: "the file is empty")
        }
        return try ConfigurationReader(file: file).configuration(root)
    }
}
