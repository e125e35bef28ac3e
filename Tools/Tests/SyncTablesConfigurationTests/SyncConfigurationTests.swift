import Foundation
import SyncTablesConfiguration
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("SyncConfiguration")
struct SyncConfigurationTests {
    static let file = """
        engine:
          minimumCycleInterval: 5s
          serverChangeDebounce: 200ms
          maxQueueSize: 10000
          historyLimit: 200
          historyMaxAge: 7d
          breakerThreshold: 4
          breakerCooldown: 1m
          retry: { baseDelay: 1s, maximumDelay: 5m, maxAttempts: 8 }
        definitions:
          - table: TodoItem
            queryId: all-todos
            interval: 30s
            triggers: [appStart, networkReconnect, serverChange, { afterLocalWrite: 2s }]
            maxAge: 10s
            pageSize: 100
            conflictPolicy: serverWins
          - table: Note
        """

    @Test func aFileDecodesIntoTheEnginesPoliciesTheContextsLimitsAndTheDefinitions() throws {
        let configuration = try SyncConfiguration.parse(Self.file, file: "sync.yml")

        #expect(
            configuration.engine
                == SyncEngineConfiguration(
                    retry: RetryPolicy(baseDelay: .seconds(1), maximumDelay: .seconds(300), maxAttempts: 8),
                    breakerThreshold: 4, breakerCooldown: .seconds(60), minimumCycleInterval: .seconds(5),
                    serverChangeDebounce: .milliseconds(200)))
        #expect(configuration.maxQueueSize == 10_000)
        #expect(configuration.historyRetention == OperationHistoryRetention(maxEntries: 200, maxAge: .seconds(604_800)))
        #expect(configuration.definitions.map(\.table) == ["TodoItem", "Note"])
        let todos = configuration.definitions[0]
        #expect(todos.queryId == "all-todos" && todos.pageSize == 100 && todos.conflictPolicy == .serverWins)
        #expect(
            todos.schedule
                == SyncSchedule(
                    interval: .seconds(30),
                    triggers: [.appStart, .networkReconnect, .serverChange, .afterLocalWrite(debounce: .seconds(2))],
                    maxAge: .seconds(10)))
        #expect(configuration.definitions[1] == SyncConfiguration.Definition(table: "Note"))
    }

    @Test func aFileWithoutHistoryKeysKeepsTheContextsRetention() throws {
        let configuration = try SyncConfiguration.parse("definitions: [{ table: todo }]\n")

        #expect(configuration.historyRetention == nil && configuration.maxQueueSize == nil)
    }

    @Test func aMistakeNamesTheFileLineAndKey() {
        #expect(
            throws: SyncConfigurationError(
                file: "sync.yml", line: 2, key: "engine.historyLimit", message: "must be at least 0, not -1")
        ) {
            try SyncConfiguration.parse(
                "engine:\n  historyLimit: -1\ndefinitions: [{ table: todo }]\n", file: "sync.yml")
        }
        #expect(throws: SyncConfigurationError.self) { try SyncConfiguration.load(contentsOf: "/nonexistent/sync.yml") }
    }

    @Test func theFileConfiguresTheContextAndMakeEngineSyncsTheTablesWithARealServer() async throws {
        let server = try await SyncServer(
            configuration: SyncServerConfiguration(storage: .inMemory, softDelete: .allTables).withTestControls()
        )
        try await server.start()
        try await server.stopping {
            let controls = try #require(server.testControls)
            _ = try await controls.seed(table: "TodoItem", items: [["id": "a", "text": "from the server"]])
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID()).sqlite").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            let configuration = try SyncConfiguration.parse(Self.file)
            let context = try await SyncContext(
                store: try SQLiteStore(path: path), client: SyncClient(url: try #require(server.url)),
                configuration: configuration.contextConfiguration())

            let engine = try await configuration.makeEngine(context: context, clock: ManualSyncClock())
            let report = await engine.syncNow()

            #expect(report.failedPulls.isEmpty, "\(report)")
            #expect(context.configuration.maxQueueSize == 10_000)
            #expect(context.historyRetention.maxEntries == 200)
            let todos = try await context.table(JSONObject.self, named: "TodoItem")
            #expect(try await todos.lookup(id: "a")?["text"] == "from the server")
            try await context.close()
        }
    }
}
