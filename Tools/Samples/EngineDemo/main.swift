// The sync engine on its own: a device goes offline and queues writes, the server goes away and the engine
// backs off, and an item the server refuses is dead-lettered and then discarded. The engine's states are
// printed as they change.
import Foundation
import Logging
import SyncTables
import SyncTablesServer
import SyncTablesServerTesting

struct TodoItem: SyncItem {
    var id: String
    var text: String
    var complete: Bool
}

func step(_ number: Int, _ title: String) {
    print("\n\(number). \(title)")
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("engine-demo-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

/// A server on `port` (0: any free one) over one database file, so it can stop and come back.
func startServer(port: Int = 0) async throws -> SyncServer {
    // Test controls let the demo make the server refuse one item, as a validation rule on a real server would.
    let server = try await SyncServer(
        configuration: SyncServerConfiguration(
            port: port, storage: .file(path: directory.appendingPathComponent("server.sqlite").path),
            softDelete: .allTables
        ).withTestControls())
    try await server.start()
    return server
}

var server = try await startServer()
guard let serverURL = server.url, let port = serverURL.port else { fatalError("the server did not report its address") }

let context = try await SyncContext(
    store: try SQLiteStore(path: directory.appendingPathComponent("device.sqlite").path),
    client: SyncClient(url: serverURL))
let todos = try await context.table(TodoItem.self)
let network = ManualNetworkMonitor(.online)  // an app passes `try SystemNetworkMonitor()`
let engine = SyncEngine(
    context: context,
    definitions: [
        SyncDefinition(
            todos, queryId: "all-todos",
            schedule: SyncSchedule(triggers: [.appStart, .networkReconnect, .afterLocalWrite(debounce: .seconds(1))]))
    ],
    configuration: SyncEngineConfiguration(
        retry: RetryPolicy(baseDelay: .seconds(1), maximumDelay: .seconds(2), maxAttempts: 5)),
    networkMonitor: network,
    logger: {
        var logger = Logger(label: "engine-demo")
        logger.logLevel = .warning  // the demo prints the states itself
        return logger
    }())

let printer = Task {
    for await state in engine.states { print("    state: \(state)") }
}

/// Waits (polling the status, as an app's screen would observe it) until `condition` holds.
func waitFor(_ what: String, _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(30)
    while try await !condition() {
        guard ContinuousClock.now < deadline else { fatalError("timed out waiting for \(what)") }
        try await Task.sleep(for: .milliseconds(50))
    }
}

step(1, "The engine starts and syncs by itself")
await engine.start()
try await waitFor("the first cycle") { engine.status.lastSuccessfulPush != nil && engine.state == .idle }

step(2, "The device goes offline; writes queue")
network.set(.offline)
try await Task.sleep(for: .milliseconds(100))
for text in ["Buy milk", "Call Ann", "Water plants"] {
    try await todos.insert(TodoItem(id: "", text: text, complete: false))
}
print("    queued: \(try await context.pendingOperationCount()) operation(s); nothing is sent while offline")

step(3, "The network comes back: one cycle sends the queue")
network.set(.online)
try await waitFor("the queue to drain") { try await context.pendingOperationCount() == 0 }
print("    queued: 0")

step(4, "The server goes away: cycles fail and back off, then succeed once it is back")
try await server.stop()
try await todos.insert(TodoItem(id: "", text: "Written while the server is down", complete: false))
try await waitFor("a backoff") {
    if case .backoff = engine.state { return true }
    return false
}
server = try await startServer(port: port)
try await waitFor("the write to reach the server") { try await context.pendingOperationCount() == 0 }

step(5, "The server refuses one item for good: it is dead-lettered and blocks nothing")
try await todos.insert(TodoItem(id: "poison", text: "An item the server refuses", complete: false))
await server.testControls?.addFault(
    FaultRule(method: "POST", path: "/tables/TodoItem", occurrence: nil, action: .respond(status: 422)))
try await waitFor("the dead letter") { try await !context.deadOperations().isEmpty }
for dead in try await context.deadOperations() {
    print("    dead: \(dead.itemId), HTTP \(dead.error?.status ?? 0), after \(dead.attempts.count) attempt(s)")
}
await server.testControls?.clearFaults()
let discarded = try await context.discardDeadOperations()
print("    discarded \(discarded) dead operation(s); queued: \(try await context.pendingOperationCount())")

await engine.stop()
printer.cancel()
try await context.close()
try await server.stop()
print("\nDone.")
