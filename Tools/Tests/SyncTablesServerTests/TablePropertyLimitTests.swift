import Foundation
import SyncTablesServer
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("Table property limit")
struct TablePropertyLimitTests {
    private static func item(id: String, properties: Range<Int>, prefix: String = "p") -> String {
        let fields = properties.map { #""\#(prefix)\#($0)":\#($0)"# }
        return #"{"id":"\#(id)","# + fields.joined(separator: ",") + "}"
    }

    @Test func aBodyWith2000NewPropertiesGets400WhileAnotherTableIsRead() async throws {
        try await ServerHarness.with { server in
            try await server.insert("other", #"{"id":"a"}"#)
            let wide = Self.item(id: "w", properties: 0..<2000)

            async let refused = server.send(.post, "/tables/wide", json: wide)
            for _ in 0..<20 {
                #expect(try await server.send(.get, "/tables/other").status == 200)
            }
            let response = try await refused

            #expect(response.status == 400)
            #expect(try response.errorMessage()?.contains("at most 256") == true, "\(response.text)")
            #expect(try await server.send(.get, "/tables/wide/w").status == 404)
        }
    }

    @Test func aTableGrowsUpToTheLimitThenAWriteAddingMoreIsRefusedAndChangesNothing() async throws {
        try await ServerHarness.with({ $0.maxTableProperties = 20 }) { server in
            // id and the four system properties count too: 15 properties of our own fit.
            try await server.insert("todo", Self.item(id: "a", properties: 0..<10))
            try await server.insert("todo", Self.item(id: "b", properties: 5..<15))
            let refused = try await server.send(.post, "/tables/todo", json: Self.item(id: "c", properties: 15..<16))
            #expect(refused.status == 400)
            #expect(try refused.errorMessage()?.contains("would have 21 properties") == true, "\(refused.text)")
            let patch = try await server.send(.patch, "/tables/todo/a", json: #"{"extra":1}"#)
            #expect(patch.status == 400)
            // Known properties stay writable.
            #expect(try await server.send(.patch, "/tables/todo/a", json: #"{"p14":1}"#).status == 200)
            #expect(try await server.send(.get, "/tables/todo").ids() == ["a", "b"])
        }
    }

    @Test func afterARestartTheLimitCountsThePropertiesAlreadyInTheDatabaseFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sync-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("server.sqlite").path
        let configure: (inout SyncServerConfiguration) -> Void = {
            $0.storage = .file(path: path)
            $0.maxTableProperties = 20
        }
        try await ServerHarness.with(configure) { server in
            try await server.insert("todo", Self.item(id: "a", properties: 0..<15))
        }
        try await ServerHarness.with(configure) { server in
            let refused = try await server.send(
                .post, "/tables/todo", json: Self.item(id: "b", properties: 0..<1, prefix: "q"))
            #expect(refused.status == 400, "\(refused.text)")
        }
    }
}
