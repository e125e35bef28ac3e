import Foundation
import Logging
import SyncTablesServer
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Two devices on two `sync-server` instances sharing one PostgreSQL database: device A writes through
/// instance 1, device B's engine follows instance 2's change feed, with no interval at all. The instances hear
/// of each other's writes through PostgreSQL's LISTEN/NOTIFY.
@Suite("Live sync across two instances on PostgreSQL", .serialized)
struct LiveSyncAcrossInstancesTests {
    struct Todo: SyncItem, Equatable {
        var id: String
        var text: String
        var version: String?
    }

    @Test(.enabled(if: TestBackend.isPostgres), .timeLimit(.minutes(5)))
    func aWriteThroughOneInstanceReachesADeviceOnTheOtherWithoutAnInterval() async throws {
        let database = try TestBackend.freshPostgresDatabase()
        defer { Task { try? await TestBackend.dropSchema(of: database) } }
        let first = try await SyncServer(configuration: SyncServerConfiguration(storage: .postgres(database)))
        let second = try await SyncServer(configuration: SyncServerConfiguration(storage: .postgres(database)))
        try await first.start()
        try await second.start()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = try await SyncContext(
            store: try SQLiteStore(path: directory.appendingPathComponent("writer.sqlite").path),
            client: SyncClient(url: try #require(first.url)))
        let reader = try await SyncContext(
            store: try SQLiteStore(path: directory.appendingPathComponent("reader.sqlite").path),
            client: SyncClient(url: try #require(second.url)))
        let writerTodos = try await writer.table(Todo.self)
        let readerTodos = try await reader.table(Todo.self)
        let engine = SyncEngine(
            context: reader,
            definitions: [
                SyncDefinition(readerTodos, queryId: "todos", schedule: SyncSchedule(triggers: [.serverChange]))
            ],
            clock: SystemSyncClock(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        await engine.start()
        try await Self.eventually("the feed on instance 2 is live") { engine.status.changeFeed == .live }

        for index in 0..<5 {
            try await writerTodos.insert(Todo(id: "t\(index)", text: "through instance 1"))
            try await writer.push()
            try await Self.eventually("t\(index) reaches the device on instance 2") {
                try await readerTodos.lookup(id: "t\(index)") != nil
            }
        }
        var updated = try #require(try await writerTodos.lookup(id: "t0"))
        updated.text = "changed"
        try await writerTodos.update(updated)
        try await writer.push()
        try await Self.eventually("the update follows") { try await readerTodos.lookup(id: "t0")?.text == "changed" }

        await engine.stop()
        try await first.stop()
        try await second.stop()
    }

    /// Polls `condition` every 10 ms for up to 20 s.
    static func eventually(_ what: String, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while try await !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("never happened: \(what)")
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
