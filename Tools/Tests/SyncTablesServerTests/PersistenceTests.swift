import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

@Suite("File storage")
struct PersistenceTests {
    @Test func rowsWrittenToADatabaseFileSurviveARestartAndVersionsKeepChanging() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sync-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("server.sqlite").path

        var first: JSONObject = JSONObject()
        try await ServerHarness.with({ $0.storage = .file(path: path) }) { server in
            first = try await server.insert("todo", #"{"id":"a","text":"kept"}"#)
        }
        try await ServerHarness.with({ $0.storage = .file(path: path) }) { server in
            let response = try await server.send(.get, "/tables/todo/a")
            #expect(response.status == 200)
            #expect(try response.object() == first)
            let updated = try await server.send(.patch, "/tables/todo/a", json: #"{"text":"changed"}"#).object()
            #expect(updated.string("version") != first.string("version"))
            #expect(updated.string("updatedAt")! > first.string("updatedAt")!)
        }
    }
}
