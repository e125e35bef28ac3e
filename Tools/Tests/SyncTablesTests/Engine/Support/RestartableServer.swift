import Foundation
import SyncTablesServer
import SyncTablesServerTesting

/// A `sync-server` on a database file that a test can stop and start again on the same port, as a server
/// that goes away and comes back.
struct RestartableServer {
    let database: String

    /// A server on `database` listening on `port` (0: any free port), started.
    func start(port: Int = 0) async throws -> SyncServer {
        let server = try await SyncServer(
            configuration: SyncServerConfiguration(port: port, storage: .file(path: database)).withTestControls()
        )
        try await server.start()
        return server
    }
}
