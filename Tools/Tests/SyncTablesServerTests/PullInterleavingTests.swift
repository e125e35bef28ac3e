import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// Writes interleaved with the pages of incremental pulls, in 100 seeded orders, on the backend the suite runs on
/// (SQLite, or PostgreSQL with `SYNC_TEST_BACKEND=postgres`). Two clients pull: one with the v2 clients'
/// `updatedAt ge T` + `$skip` algorithm (see the *Wire protocol* article of SyncTables, section *Incremental
/// pull*), one following keyset next links. Every row a client
/// holds at the end is the server's latest version (nothing missed), and no pull returns a row version twice
/// (except the `$skip` client's expected re-fetch of the row at its watermark). The seed of a failing order is in
/// the failure message.
@Suite("Incremental pulls interleaved with writes")
struct PullInterleavingTests {
    @Test func noRowIsMissedOrReturnedTwiceInOnePullIn100InterleavingsOfWritesAndPages() async throws {
        try await ServerHarness.with({
            $0.softDelete = .allTables
            $0.pageSize = 4
        }) { server in
            try await server.withConnection { connection in
                for seed in UInt64(0)..<100 {
                    try await Self.run(seed: seed, connection: connection)
                }
            }
        }
    }

    private static func run(seed: UInt64, connection: ServerHarness.Connection) async throws {
        var random = SeededGenerator(seed: 0x1A7E_0000 + seed)
        let table = "pull\(seed)"
        var truth: [String: JSONObject] = [:]
        var skipClient = SkipPuller(table: table)
        var keysetClient = KeysetPuller(table: table, port: connection.port)
        var writesLeft = 24
        while writesLeft > 0 {
            // The `$skip` client's next step follows its previous page at once: a rewrite of the row at its
            // watermark in between shifts what `$skip` skips (a limit of that algorithm; keyset links have none).
            let choice = skipClient.isSkipping ? 0 : Int.random(in: 0..<3, using: &random)
            switch choice {
            case 0:
                try await skipClient.step(connection)
            case 1:
                try await keysetClient.step(connection)
            default:
                try await write(&truth, table: table, connection: connection, random: &random)
                writesLeft -= 1
            }
        }
        try await PullerConvergence.finishAndExpect(
            &skipClient, &keysetClient, truth: truth, seed: seed, connection: connection)
    }

    /// One random insert, update, delete or undelete; `truth` keeps the server's answer.
    private static func write(
        _ truth: inout [String: JSONObject], table: String, connection: ServerHarness.Connection,
        random: inout SeededGenerator
    ) async throws {
        let id = "r\(Int.random(in: 0..<8, using: &random))"
        let write = RandomRowWrite(table: table, id: id, current: truth[id], random: &random)
        let response = try await connection.send(write.method, write.path, json: write.json)
        try #require((200...201).contains(response.status), "\(response.status) \(response.text)")
        truth[id] = try response.object()
    }
}
