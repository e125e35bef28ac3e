import Logging
import SyncTables

extension SyncConfiguration {
    /// Applies the context settings (queue limit, history retention) to `context` and makes an engine that
    /// syncs the configured tables with the configured policies; opening the tables as needed.
    ///
    /// ```swift
    /// let engine = try await SyncConfiguration.load(contentsOf: "sync.yml").makeEngine(context: context)
    /// ```
    ///
    /// The other parameters are `SyncEngine`'s own.
    public func makeEngine(
        context: SyncContext,
        networkMonitor: (any NetworkMonitor)? = nil,
        clock: (any SyncClock)? = nil,
        logger: Logger = Logger(label: "SyncTables.SyncEngine")
    ) async throws -> SyncEngine {
        if let maxQueueSize { await context.setMaxQueueSize(maxQueueSize) }
        if let historyRetention { context.setHistoryRetention(historyRetention) }
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
}
