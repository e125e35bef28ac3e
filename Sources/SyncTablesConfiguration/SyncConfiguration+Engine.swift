import Logging
import SyncTables

extension SyncConfiguration {
    /// The context settings of the file (queue limit, history retention) applied to `base`: open the context
    /// with it.
    ///
    /// ```swift
    /// let file = try SyncConfiguration.load(contentsOf: "sync.yml")
    /// let context = try await SyncContext(store: store, client: client, configuration: file.contextConfiguration())
    /// let engine = try await file.makeEngine(context: context)
    /// ```
    public func contextConfiguration(_ base: SyncContext.Configuration = SyncContext.Configuration())
        -> SyncContext.Configuration
    {
        var configuration = base
        if let maxQueueSize { configuration.maxQueueSize = maxQueueSize }
        if let historyRetention { configuration.historyRetention = historyRetention }
        return configuration
    }

    /// Makes an engine that syncs the configured tables with the configured policies, opening the tables as
    /// needed. `context` must have been opened with the file's context settings (``contextConfiguration(_:)``).
    ///
    /// The other parameters are `SyncEngine`'s own.
    ///
    /// - Throws: ``SyncConfigurationError`` when the context's queue limit or history retention differs from
    ///   the file's (the file's would silently not apply); what opening a table throws.
    public func makeEngine(
        context: SyncContext,
        networkMonitor: (any NetworkMonitor)? = nil,
        clock: (any SyncClock)? = nil,
        logger: Logger = Logger(label: "SyncTables.SyncEngine")
    ) async throws -> SyncEngine {
        try checkContextSettings(of: context)
        var engineDefinitions: [SyncDefinition] = []
        for definition in definitions {
            let table = try await context.table(JSONObject.self, named: definition.table)
            var pullOptions = PullOptions()
            if let pageSize = definition.pageSize { pullOptions.pageSize = pageSize }
            engineDefinitions.append(
                SyncDefinition(
                    table, queryId: definition.queryId, conflictPolicy: definition.conflictPolicy?.policy,
                    pullOptions: pullOptions, schedule: definition.schedule))
        }
        return SyncEngine(
            context: context, definitions: engineDefinitions, configuration: engine, networkMonitor: networkMonitor,
            clock: clock, logger: logger)
    }

    /// Refuses a context whose settings are not the file's.
    private func checkContextSettings(of context: SyncContext) throws {
        let expected = contextConfiguration(context.configuration)
        var differing: [String] = []
        if expected.maxQueueSize != context.configuration.maxQueueSize { differing.append("engine.maxQueueSize") }
        if expected.historyRetention != context.configuration.historyRetention { differing.append("engine.history") }
        guard differing.isEmpty else {
            throw SyncConfigurationError(
                file: "", line: nil, key: differing.joined(separator: ", "),
                message: "the context was opened without the file's settings: open it with contextConfiguration()")
        }
    }
}
