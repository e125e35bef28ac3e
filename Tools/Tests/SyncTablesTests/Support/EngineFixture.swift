import Foundation
import Logging
import SyncTablesServer
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// A device whose context is driven by a ``SyncEngine`` on a ``ManualSyncClock``, against the harness's
/// real `sync-server`.
struct EngineDevice {
    let device: Device
    let engine: SyncEngine
    let clock: ManualSyncClock
    let notes: SyncTable<JSONObject>

    var context: SyncContext { device.context }
    var todos: SyncTable<TodoItem> { device.todos }

    /// A device on a new (or the given) file with an engine pulling `TodoItem` and `Note` (on the given
    /// schedules).
    static func make(
        _ harness: SyncHarness,
        path: String? = nil,
        clock: ManualSyncClock = ManualSyncClock(),
        configuration: SyncEngineConfiguration = SyncEngineConfiguration(
            retry: RetryPolicy(baseDelay: .seconds(10), maximumDelay: .seconds(600), maxAttempts: 3),
            breakerThreshold: 3, breakerCooldown: .seconds(120)),
        token: TokenBox? = nil,
        conflictPolicy: ConflictPolicy = .manual,
        todoSchedule: SyncSchedule = SyncSchedule(),
        noteSchedule: SyncSchedule = SyncSchedule(),
        networkMonitor: (any NetworkMonitor)? = nil
    ) async throws -> EngineDevice {
        let path = path ?? harness.directory.newDatabasePath()
        var decorator: (@Sendable (inout TransportRequest) async throws -> Void)?
        if let token {
            decorator = { request in request.headers["X-ZUMO-AUTH"] = token.value }
        }
        let client = SyncClient(url: harness.url, requestDecorator: decorator)
        let context = try await SyncContext(
            store: try SQLiteStore(path: path), client: client,
            configuration: SyncContext.Configuration(conflictPolicy: conflictPolicy))
        let todos = try await context.table(TodoItem.self)
        let notes = try await context.table(JSONObject.self, named: "Note")
        let engine = SyncEngine(
            context: context,
            definitions: [
                SyncDefinition(todos, queryId: "todos", schedule: todoSchedule),
                SyncDefinition(notes, queryId: "notes", schedule: noteSchedule),
            ],
            configuration: configuration, networkMonitor: networkMonitor, clock: clock, random: { 0.5 },
            logger: Self.quietLogger)
        return EngineDevice(
            device: Device(path: path, context: context, todos: todos), engine: engine, clock: clock, notes: notes)
    }

    /// Engines in tests log only errors, so the test output stays readable.
    static let quietLogger: Logger = {
        var logger = Logger(label: "SyncTables.SyncEngine.tests")
        logger.logLevel = .error
        return logger
    }()

    /// Waits (without the clock) until the engine's state satisfies `condition`, at most 20 s.
    func waitForState(_ condition: @escaping @Sendable (SyncEngineState) -> Bool) async throws {
        let states = engine.states
        let reached = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await state in states where condition(state) { return true }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(20))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        if !reached { Issue.record("the engine never reached the expected state; it is \(engine.state)") }
    }
}

extension EngineDevice {
    /// Starts the engine and waits for its first cycle (the push at start) to end.
    func startAndSettle() async throws {
        await engine.start()
        try await eventually("the first cycle ends") {
            engine.status.lastSuccessfulPush != nil && engine.state == .idle
        }
    }
}

extension SyncHarness {
    /// The table requests (method and path) the server received since the last call.
    func takeTableRequests() async throws -> [String] {
        try await takeRequests().map { "\($0.method) \($0.path)" }
    }
}

/// Polls `condition` every 5 ms until it holds, recording an issue after 20 s (a stuck engine must fail the
/// test, not hang it).
func eventually(_ what: String, _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(20)
    while try await !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("never happened: \(what)")
            return
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}
