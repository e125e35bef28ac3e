import Foundation
import SyncTables
import Yams

/// Reads a composed YAML document into a ``SyncConfiguration``, naming the line and key of the first
/// thing wrong: an unknown key, a missing one, or a value of the wrong kind or out of range.
struct ConfigurationReader {
    let file: String

    func configuration(_ root: Node) throws(SyncConfigurationError) -> SyncConfiguration {
        var result = SyncConfiguration()
        let top = try mapping(root, key: nil, allowed: ["engine", "definitions"])
        if let engine = top["engine"] { try read(engine: engine, into: &result) }
        guard let definitions = top["definitions"] else {
            throw error(root, nil, "missing key 'definitions' (the tables to sync)")
        }
        guard case .sequence(let list) = definitions else {
            throw error(definitions, "definitions", "must be a list of definitions")
        }
        guard !list.isEmpty else { throw error(definitions, "definitions", "must name at least one table") }
        for (index, node) in list.enumerated() {
            result.definitions.append(try definition(node, key: "definitions[\(index)]"))
        }
        return result
    }

    private func read(engine node: Node, into result: inout SyncConfiguration) throws(SyncConfigurationError) {
        let keys = try mapping(
            node, key: "engine",
            allowed: [
                "minimumCycleInterval", "serverChangeDebounce", "maxQueueSize", "historyLimit", "historyMaxAge",
                "breakerThreshold", "breakerCooldown", "retry",
            ])
        var engine = SyncEngineConfiguration()
        if let value = keys["minimumCycleInterval"] {
            engine.minimumCycleInterval = try duration(value, "engine.minimumCycleInterval")
        }
        if let value = keys["serverChangeDebounce"] {
            engine.serverChangeDebounce = try duration(value, "engine.serverChangeDebounce")
        }
        if let value = keys["maxQueueSize"] { result.maxQueueSize = try integer(value, "engine.maxQueueSize", min: 1) }
        if keys["historyLimit"] != nil || keys["historyMaxAge"] != nil {
            var retention = OperationHistoryRetention()
            if let value = keys["historyLimit"] {
                retention.maxEntries = try integer(value, "engine.historyLimit", min: 0)
            }
            if let value = keys["historyMaxAge"] {
                retention.maxAge = try duration(value, "engine.historyMaxAge")
            }
            result.historyRetention = retention
        }
        if let value = keys["breakerThreshold"] {
            engine.breakerThreshold = try integer(value, "engine.breakerThreshold", min: 1)
        }
        if let value = keys["breakerCooldown"] {
            engine.breakerCooldown = try duration(value, "engine.breakerCooldown")
        }
        if let retryNode = keys["retry"] {
            let retry = try mapping(
                retryNode, key: "engine.retry", allowed: ["baseDelay", "maximumDelay", "maxAttempts"])
            if let value = retry["baseDelay"] { engine.retry.baseDelay = try duration(value, "engine.retry.baseDelay") }
            if let value = retry["maximumDelay"] {
                engine.retry.maximumDelay = try duration(value, "engine.retry.maximumDelay")
            }
            if let value = retry["maxAttempts"] {
                engine.retry.maxAttempts = try integer(value, "engine.retry.maxAttempts", min: 1)
            }
            if engine.retry.maximumDelay < engine.retry.baseDelay {
                throw error(retryNode, "engine.retry", "maximumDelay must not be shorter than baseDelay")
            }
        }
        result.engine = engine
    }

    private func definition(_ node: Node, key: String) throws(SyncConfigurationError) -> SyncConfiguration.Definition {
        let keys = try mapping(
            node, key: key,
            allowed: ["table", "queryId", "interval", "triggers", "maxAge", "pageSize", "conflictPolicy"])
        guard let tableNode = keys["table"] else { throw error(node, key, "missing key 'table'") }
        var definition = SyncConfiguration.Definition(table: try string(tableNode, "\(key).table"))
        if let value = keys["queryId"] { definition.queryId = try string(value, "\(key).queryId") }
        if let value = keys["interval"] {
            let interval = try duration(value, "\(key).interval")
            guard interval > .zero else { throw error(value, "\(key).interval", "must be longer than zero") }
            definition.schedule.interval = interval
        }
        if let value = keys["triggers"] { definition.schedule.triggers = try triggers(value, "\(key).triggers") }
        if let value = keys["maxAge"] { definition.schedule.maxAge = try duration(value, "\(key).maxAge") }
        if let value = keys["pageSize"] { definition.pageSize = try integer(value, "\(key).pageSize", min: 1) }
        if let value = keys["conflictPolicy"] {
            let name = try string(value, "\(key).conflictPolicy")
            guard let policy = SyncConfiguration.ConflictPolicyName(rawValue: name) else {
                let known = SyncConfiguration.ConflictPolicyName.allCases.map(\.rawValue).joined(separator: ", ")
                throw error(value, "\(key).conflictPolicy", "unknown policy '\(name)' (use one of: \(known))")
            }
            definition.conflictPolicy = policy
        }
        if definition.schedule.triggers.contains(.intervalOnly) && definition.schedule.interval == nil {
            throw error(node, key, "'intervalOnly' needs an interval, or the table never syncs by itself")
        }
        return definition
    }

    private static let triggerNames = [
        "appStart", "foreground", "networkReconnect", "serverChange", "intervalOnly", "afterLocalWrite",
    ]

    private func triggers(_ node: Node, _ key: String) throws(SyncConfigurationError) -> Set<SyncTrigger> {
        guard case .sequence(let list) = node else {
            throw error(node, key, "must be a list, e.g. [networkReconnect, { afterLocalWrite: 2s }]")
        }
        var result = Set<SyncTrigger>()
        for (index, item) in list.enumerated() {
            let itemKey = "\(key)[\(index)]"
            if case .mapping = item {
                let keys = try mapping(item, key: itemKey, allowed: ["afterLocalWrite"])
                guard let debounce = keys["afterLocalWrite"] else {
                    throw error(item, itemKey, "write { afterLocalWrite: 2s }")
                }
                result.insert(.afterLocalWrite(debounce: try duration(debounce, "\(itemKey).afterLocalWrite")))
                continue
            }
            switch try string(item, itemKey) {
            case "appStart": result.insert(.appStart)
            case "foreground": result.insert(.foreground)
            case "networkReconnect": result.insert(.networkReconnect)
            case "serverChange": result.insert(.serverChange)
            case "intervalOnly": result.insert(.intervalOnly)
            case "afterLocalWrite":
                throw error(item, itemKey, "afterLocalWrite needs a debounce: write { afterLocalWrite: 2s }")
            case let name:
                throw error(
                    item, itemKey,
                    "unknown trigger '\(name)' (use one of: \(Self.triggerNames.joined(separator: ", ")))")
            }
        }
        return result
    }

    // MARK: Values

    /// The pairs of a mapping by key, refusing keys not in `allowed` (Yams refuses repeated keys).
    private func mapping(_ node: Node, key: String?, allowed: [String]) throws(SyncConfigurationError) -> [String: Node]
    {
        guard case .mapping(let pairs) = node else { throw error(node, key, "must be a mapping of keys to values") }
        var result: [String: Node] = [:]
        for (keyNode, value) in pairs {
            let name = keyNode.scalar?.string ?? ""
            let path = key.map { "\($0).\(name)" } ?? name
            guard allowed.contains(name) else {
                throw error(keyNode, path, "unknown key (known here: \(allowed.joined(separator: ", ")))")
            }
            result[name] = value
        }
        return result
    }

    private func string(_ node: Node, _ key: String) throws(SyncConfigurationError) -> String {
        guard case .scalar(let scalar) = node, !scalar.string.isEmpty else {
            throw error(node, key, "must be a non-empty text")
        }
        return scalar.string
    }

    private func integer(_ node: Node, _ key: String, min: Int) throws(SyncConfigurationError) -> Int {
        guard case .scalar(let scalar) = node, let value = Int(scalar.string) else {
            throw error(node, key, "must be a whole number, not '\(node.scalar?.string ?? "a list or mapping")'")
        }
        guard value >= min else { throw error(node, key, "must be at least \(min), not \(value)") }
        return value
    }

    private func duration(_ node: Node, _ key: String) throws(SyncConfigurationError) -> Duration {
        guard case .scalar(let scalar) = node, let duration = DurationText.parse(scalar.string) else {
            throw error(
                node, key,
                "'\(node.scalar?.string ?? "a list or mapping")' is not a duration (write e.g. 500ms, 30s, 5m, 1h)")
        }
        return duration
    }

    private func error(_ node: Node, _ key: String?, _ message: String) -> SyncConfigurationError {
        SyncConfigurationError(file: file, line: node.mark?.line, key: key, message: message)
    }
}
