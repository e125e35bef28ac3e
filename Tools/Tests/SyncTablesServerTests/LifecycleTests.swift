import Foundation
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

@Suite("Server lifecycle")
struct LifecycleTests {
    @Test func aServerOnPort0GetsAnEphemeralPortAndReportsItsURL() async throws {
        let server = try await SyncServer(configuration: SyncServerConfiguration(storage: .inMemory))
        #expect(server.port == nil)
        try await server.start()
        let port = try #require(server.port)
        #expect(port > 0)
        #expect(server.url?.absoluteString == "http://127.0.0.1:\(port)")
        try await server.stop()
        #expect(server.port == nil)
    }

    @Test func startingARunningServerThrows() async throws {
        let server = try await SyncServer(configuration: SyncServerConfiguration(storage: .inMemory))
        try await server.start()
        await #expect(throws: SyncServerError.alreadyStarted) { try await server.start() }
        try await server.stop()
    }

    @Test func bindingAPortThatIsTakenFailsToStartInsteadOfHanging() async throws {
        let first = try await SyncServer(configuration: SyncServerConfiguration(storage: .inMemory))
        try await first.start()
        let port = try #require(first.port)
        let second = try await SyncServer(
            configuration: SyncServerConfiguration(port: port, storage: .inMemory)
        )
        await #expect(throws: (any Error).self) { try await second.start() }
        try await first.stop()
    }

    @Test func theTestControlsExistOnlyWhenEnabled() async throws {
        let off = try await SyncServer(configuration: SyncServerConfiguration(storage: .inMemory))
        let on = try await SyncServer(
            configuration: SyncServerConfiguration(storage: .inMemory).withTestControls()
        )
        #expect(off.testControls == nil)
        #expect(on.testControls != nil)
    }
}
